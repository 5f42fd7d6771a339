package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
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

// TestPlanProtectOnEveryCPU: the plan of a config long enough to be
// decided a chunk at a time on several goroutines is the plan decided one
// hook at a time, in the same order: protected, refused and already
// protected hooks mixed over chunk boundaries.
func TestPlanProtectOnEveryCPU(t *testing.T) {
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	n := 3*inOrderChunk + 17
	for i := range n {
		switch i % 5 {
		case 3:
			fmt.Fprintf(&cfg, "    - command: \"~/new.sh %d\"\n", i) // not approved: refused
		case 4:
			fmt.Fprintf(&cfg, "    - command: \"/opt/hermes/bin/hermes-guard --event pre_tool_call -- ${HOME}/ok.sh %d\"\n", i) // protected already
		default:
			fmt.Fprintf(&cfg, "    - command: \"~/ok.sh %d\"\n", i)
		}
	}
	h := newTrustHome(t, cfg.String(), map[string]string{"ok.sh": "#!/bin/sh\n", "new.sh": "#!/bin/sh\n"})
	h.approveAll()
	s, list := h.load()
	list.Revoke("~/new.sh") // what approveAll approved of new.sh goes
	for i := range n {
		if i%5 == 3 {
			list.Revoke(fmt.Sprintf("~/new.sh %d", i))
		}
	}
	env := config.MapEnv(map[string]string{"HOME": h.dir})
	plan := func(procs int) ([]Rewrap, []Refused) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		p, r, _ := s.PlanProtect(s.Parsed.Specs, list, "/opt/hermes/bin/hermes-guard", env, false)
		return p, r
	}
	onePlan, oneRefused := plan(1)
	manyPlan, manyRefused := plan(4)
	if len(onePlan) == 0 || len(oneRefused) == 0 {
		t.Fatalf("%d planned, %d refused: the config does not mix them", len(onePlan), len(oneRefused))
	}
	if !reflect.DeepEqual(onePlan, manyPlan) || !reflect.DeepEqual(oneRefused, manyRefused) {
		t.Fatalf("on several goroutines: %d planned, %d refused; on one: %d planned, %d refused",
			len(manyPlan), len(manyRefused), len(onePlan), len(oneRefused))
	}
}
