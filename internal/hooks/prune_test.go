package hooks

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
)

func pruneSetup(t *testing.T, cfg string, env map[string]string, entries ...allowlist.Entry) *Setup {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(config.Request{HomeFlag: home, UserHome: home, Env: config.MapEnv(env)})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) > 0 {
		if _, err := s.Store.Update(func(l *allowlist.List) error {
			for _, e := range entries {
				l.Approve(e)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func commands(es []allowlist.Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Event+" "+e.Command)
	}
	return out
}

// SPEC §13.2 rule 4: stale is not a matter of the caller's environment.
func TestStaleIgnoresEnvironment(t *testing.T) {
	cfg := "hooks:\n  pre_tool_call:\n    - command: \"/g.sh --key ${GUARD_KEY}\"\n  future_event:\n    - command: /f.sh\n"
	entries := []allowlist.Entry{
		{Event: "pre_tool_call", Command: "/g.sh --key k1", ApprovedAt: "1"},
		{Event: "future_event", Command: "/f.sh", ApprovedAt: "2"},
		{Event: "pre_tool_call", Command: "/old.sh", ApprovedAt: "3"},
		{Event: "pre_tool_call", Command: "/g.sh --other k1", ApprovedAt: "4"},
	}
	for _, env := range []map[string]string{nil, {"GUARD_KEY": ""}, {"GUARD_KEY": "k2"}, {"GUARD_KEY": "k1"}} {
		s := pruneSetup(t, cfg, env, entries...)
		list, _, err := s.Store.Read()
		if err != nil {
			t.Fatal(err)
		}
		got := commands(s.StaleEntries(list))
		if len(got) != 2 || got[0] != "pre_tool_call /old.sh" || got[1] != "pre_tool_call /g.sh --other k1" {
			t.Errorf("env %v: stale = %q", env, got)
		}
		for _, a := range s.Approvals(list) {
			if want := a.Entry.ApprovedAt == "3" || a.Entry.ApprovedAt == "4"; a.Stale() != want {
				t.Errorf("env %v: %s stale=%v", env, a.Entry.Command, a.Stale())
			}
		}
	}
}

// prune removes exactly what it showed: an entry re-approved (a new
// approved_at) or added after the question is kept, and so is one whose
// hook was configured meanwhile.
func TestPruneShownRemovesOnlyWhatWasShown(t *testing.T) {
	cfg := "hooks:\n  on_session_start:\n    - command: /kept.sh\n"
	s := pruneSetup(t, cfg, nil,
		allowlist.Entry{Event: "on_session_start", Command: "/a.sh", ApprovedAt: "1"},
		allowlist.Entry{Event: "on_session_start", Command: "/b.sh", ApprovedAt: "1"})
	list, _, _ := s.Store.Read()
	shown := s.StaleEntries(list)
	if len(shown) != 2 {
		t.Fatalf("shown %q", commands(shown))
	}
	// Meanwhile: /b.sh approved again (new approved_at), /c.sh added.
	if _, err := s.Store.Update(func(l *allowlist.List) error {
		l.Approve(allowlist.Entry{Event: "on_session_start", Command: "/b.sh", ApprovedAt: "2"})
		l.Approve(allowlist.Entry{Event: "on_session_start", Command: "/c.sh", ApprovedAt: "2"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	gone, _, err := s.PruneShown(shown)
	if err != nil {
		t.Fatal(err)
	}
	if got := commands(gone); len(got) != 1 || got[0] != "on_session_start /a.sh" {
		t.Fatalf("removed %q; want only /a.sh", got)
	}
	list, _, _ = s.Store.Read()
	if got := commands(list.Approvals); len(got) != 2 {
		t.Fatalf("left %q", got)
	}
	// /a.sh shown, then configured before the lock: kept.
	s = pruneSetup(t, cfg, nil, allowlist.Entry{Event: "on_session_start", Command: "/kept.sh", ApprovedAt: "1"})
	gone, _, err = s.PruneShown([]allowlist.Entry{{Event: "on_session_start", Command: "/kept.sh", ApprovedAt: "1"}})
	if err != nil || len(gone) != 0 {
		t.Fatalf("removed a configured hook's approval: %q %v", commands(gone), err)
	}
}

// SPEC §13.2 rule 10: a secret value of the environment in an entry no
// hook names any more is shown as ${NAME}; short values are left alone.
func TestStaleEntryShowsSecretsAsNames(t *testing.T) {
	s := pruneSetup(t, "hooks:\n  on_session_start:\n    - command: /bin/true\n", nil)
	s.Environ = []string{"API_TOKEN=s3cr3t-value", "MY_KEY=on", "PATH=s3cr3t-value-not-secret-name"}
	got := s.ShownEntries([]allowlist.Entry{{Event: "on_session_start", Command: "/h.sh --t s3cr3t-value --x on"}})
	if got[0] != "/h.sh --t ${API_TOKEN} --x on" {
		t.Fatalf("shown %q", got[0])
	}
}
