package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

func TestGuardedChecks(t *testing.T) {
	home := t.TempDir()
	path := audit.Path(home)
	os.MkdirAll(filepath.Dir(path), 0o700)
	wrapped := "/opt/hermes-guard --event pre_tool_call -- /h/guard.sh"
	os.WriteFile(path, []byte(strings.Join([]string{
		// before it was protected: does not count
		`{"time":"2026-11-01T09:00:00Z","event":"pre_tool_call","kind":"shell","command":"` + wrapped + `","exit_code":0,"via":"exec","status":"ran","answer":"none"}`,
		`{"time":"2026-11-02T08:00:00Z","event":"pre_tool_call","kind":"shell","command":"` + wrapped + `","exit_code":0,"via":"exec","status":"ran","answer":"none"}`,
		// run-event of the wrapped command, later, is not the agent's run
		`{"time":"2026-11-02T09:00:00Z","event":"pre_tool_call","kind":"shell","command":"` + wrapped + `","exit_code":0,"via":"run-event"}`,
		`{"time":"2026-11-03T09:00:00Z","event":"pre_tool_call","kind":"shell","command":"` + wrapped + `","exit_code":null,"via":"exec","status":"refused","refusal":"script modified since approval"}`,
		`{"time":"2026-11-03T10:00:00Z","event":"pre_tool_call","kind":"shell","command":"/opt/hermes-guard --event pre_tool_call -- /h/other.sh","exit_code":2,"via":"exec","status":"ran","answer":"block"}`,
		`torn`,
	}, "\n")+"\n"), 0o600)
	since := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	checks, unreadable, err := GuardedChecks(home, []Guarded{
		{Event: "pre_tool_call", Commands: []string{"${HOME}/guard.sh wrapped as written", wrapped}, Since: since},
		{Event: "pre_tool_call", Commands: []string{"/opt/hermes-guard --event pre_tool_call -- /h/other.sh"}},
		{Event: "post_tool_call", Commands: []string{wrapped}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if unreadable != 1 {
		t.Errorf("unreadable %d, want 1", unreadable)
	}
	got := func(i int) string {
		var s []string
		for _, c := range checks[i] {
			s = append(s, c.Status+": "+c.Message)
		}
		return strings.Join(s, "\n")
	}
	if g := got(0); !strings.Contains(g, "ok: last ran through the guard at 2026-11-02T08:00:00Z (ok)") ||
		!strings.Contains(g, "warn: the guard last refused it at 2026-11-03T09:00:00Z: script modified since approval") {
		t.Errorf("guard.sh:\n%s", g)
	}
	if g := got(1); g != "ok: last ran through the guard at 2026-11-03T10:00:00Z (block); see: hermes hooks log --hook <command>" {
		t.Errorf("other.sh:\n%s", g)
	}
	checks, _, _ = GuardedChecks(home, []Guarded{{Event: "pre_tool_call", Commands: []string{wrapped},
		Since: time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)}})
	if g := got(0); !strings.HasPrefix(g, "info: never ran since it was protected (no run through the guard since 2026-11-02T12:00:00Z)") {
		t.Errorf("since after the last run:\n%s", g)
	}
	checks, _, _ = GuardedChecks(home, []Guarded{{Event: "post_tool_call", Commands: []string{wrapped}}})
	if g := got(0); !strings.HasPrefix(g, "info: never ran since it was protected (no run through the guard in the audit log)") || strings.Contains(g, "warn") {
		t.Errorf("another event's lines counted:\n%s", g)
	}
}
