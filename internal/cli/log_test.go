package cli

import (
	"strings"
	"testing"
)

const testLogLines = `{"time":"2026-11-29T10:00:00Z","event":"pre_tool_call","kind":"shell","command":"~/g.sh","sha256":"aa","exit_code":2,"timed_out":false,"error":null,"elapsed_seconds":0.031,"parsed":{"action":"block","message":"no"},"via":"exec","pid":1,"status":"ran","answer":"block"}
{"time":"2026-11-29T10:05:00Z","event":"pre_tool_call","kind":"shell","command":"~/g.sh","sha256":"aa","exit_code":0,"timed_out":false,"error":null,"elapsed_seconds":0.002,"parsed":null,"via":"run-event"}
`

func TestLogOutputAtATerminalAndPiped(t *testing.T) {
	for _, tty := range []bool{true, false} {
		h := newHookHarness(t, "hooks: {}\n", tty)
		h.write(t, "logs/hooks.jsonl", testLogLines, 0o600)
		if code := h.run("hooks", "log"); code != 0 {
			t.Fatalf("exit %d: %s", code, h.err)
		}
		out := h.out.String()
		if !strings.Contains(out, "2026-11-29T10:00:00Z") || !strings.Contains(out, "exit 2  via exec") {
			t.Errorf("tty %v: output lacks the run:\n%s", tty, out)
		}
		if colored := strings.Contains(out, "\x1b["); colored != tty {
			t.Errorf("tty %v: colour codes %v:\n%q", tty, colored, out)
		}
		if tty && !strings.Contains(out, "\x1b[31mblock\x1b[0m") {
			t.Errorf("a block is not red at a terminal:\n%q", out)
		}
	}
}

func TestLogFlags(t *testing.T) {
	var got *logOptions
	h := newHookHarness(t, "hooks: {}\n", false)
	cmd := newCmdLog(h.f, func(o *logOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--status", "block,failed", "--status", "ok", "--hook", "~/g.sh", "--since", "7d", "-f", "--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Status, ",") != "block,failed,ok" || got.Hook != "~/g.sh" || got.Since != "7d" || !got.Follow || !got.JSON {
		t.Errorf("options %+v", got)
	}
	cmd = newCmdLog(h.f, func(*logOptions) error { t.Fatal("ran with a bad --status"); return nil })
	cmd.SetArgs([]string{"--status", "blocked"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.Execute()
	if _, ok := err.(*UsageError); !ok || !strings.Contains(err.Error(), `invalid --status "blocked"`) {
		t.Errorf("err = %v, want a usage error naming the status", err)
	}
}

func TestStatsNoRuns(t *testing.T) {
	h := newHookHarness(t, "hooks: {}\n", false)
	if code := h.run("hooks", "stats"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	if !strings.Contains(h.out.String(), "No runs recorded.") {
		t.Errorf("output:\n%s", h.out)
	}
	h.out.Reset()
	if code := h.run("hooks", "stats", "--since", "soon"); code != 2 {
		t.Errorf("--since soon: exit %d, want 2", code)
	}
}
