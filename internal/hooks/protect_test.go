package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// TestPlanProtect: approved and unchanged hooks are wrapped with their
// approval carried over (same sha256, approved_at, mtime); the others are
// refused with the reason; once rewritten, the hook is protected, named by
// its inner command too, and judged on its inner script.
func TestPlanProtect(t *testing.T) {
	h := newTrustHome(t, `hooks:
  pre_tool_call:
    - command: "~/ok.sh"   # keep
      fail_closed: true
    - command: "~/edited.sh"
  post_tool_call:
    - command: "~/new.sh"
`, map[string]string{"ok.sh": "#!/bin/sh\n", "edited.sh": "#!/bin/sh\n", "new.sh": "#!/bin/sh\n"})
	h.approveAll()
	s, list := h.load()
	list.Revoke("~/new.sh")
	h.write("edited.sh", "#!/bin/sh\n# edited\n", approvedMtime)
	s, _ = h.load()

	env := config.MapEnv(map[string]string{"HOME": h.dir})
	plan, refused, _ := s.PlanProtect(s.Parsed.Specs, list, "/opt/hermes/bin/hermes-guard", env, false)
	if len(plan) != 1 || plan[0].From != "~/ok.sh" {
		t.Fatalf("plan = %+v", plan)
	}
	r := plan[0]
	if want := "/opt/hermes/bin/hermes-guard --event pre_tool_call --fail-closed -- ${HOME}/ok.sh"; r.To != want {
		t.Errorf("To = %q, want %q", r.To, want)
	}
	if r.New.Command != "/opt/hermes/bin/hermes-guard --event pre_tool_call --fail-closed -- "+h.dir+"/ok.sh" ||
		r.New.ScriptSHA256 != r.Old.ScriptSHA256 || r.New.ScriptSHA256 == "" || r.New.ApprovedAt != r.Old.ApprovedAt ||
		r.New.ApprovedVia != allowlist.ViaProtect || *r.New.ScriptMtime != *r.Old.ScriptMtime {
		t.Errorf("carried approval = %+v from %+v", r.New, r.Old)
	}
	reasons := map[string]string{}
	for _, x := range refused {
		reasons[x.Command] = x.Reason
	}
	if !strings.HasPrefix(reasons["~/edited.sh"], "modified since approval") || !strings.HasPrefix(reasons["~/new.sh"], "not approved") {
		t.Errorf("refused = %+v", refused)
	}

	src, err := RewriteCommands([]byte(`hooks:
  pre_tool_call:
    - command: "~/ok.sh"   # keep
      fail_closed: true
`), plan)
	if err != nil {
		t.Fatal(err)
	}
	if want := "    - command: \"/opt/hermes/bin/hermes-guard --event pre_tool_call --fail-closed -- ${HOME}/ok.sh\"   # keep\n"; !strings.Contains(string(src), want) {
		t.Errorf("rewritten config:\n%s\nwant the line %q", src, want)
	}

	specs := parseOne(t, h, string(src))
	if len(specs) != 1 || !specs[0].Protected() {
		t.Fatalf("rewritten hook not protected: %+v", specs)
	}
	got := specs[0]
	for _, name := range []string{"~/ok.sh", "${HOME}/ok.sh", h.dir + "/ok.sh", r.To, r.New.Command} {
		if !got.Names(name) {
			t.Errorf("the protected hook is not named by %q", name)
		}
	}
	if got.Names("~/other.sh") {
		t.Error("named by another command")
	}
	if problem := s.GuardProblem(got); !strings.Contains(problem, "cannot run") {
		t.Errorf("GuardProblem of a missing guard = %q", problem)
	}
	approved := &allowlist.List{}
	approved.Approve(r.New)
	if hk := s.InspectNow(got, approved); !hk.Allowed() || hk.Script != h.dir+"/ok.sh" {
		t.Errorf("the wrapped hook is judged on %s, allowed %v (%s)", hk.Script, hk.Allowed(), hk.Reason())
	}
}

// parseOne parses a config text in h's home.
func parseOne(t *testing.T, h *trustHome, cfg string) []hookspec.Spec {
	t.Helper()
	h.writeConfig(cfg)
	s, err := Load(config.Request{HomeFlag: h.dir, UserHome: h.dir, Env: config.MapEnv(map[string]string{"HOME": h.dir})})
	if err != nil {
		t.Fatal(err)
	}
	return s.Parsed.Specs
}

func (h *trustHome) writeConfig(cfg string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		h.t.Fatal(err)
	}
}
