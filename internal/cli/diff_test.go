package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNewCmdDiffFlags(t *testing.T) {
	tests := []struct {
		args      []string
		wantCmd   string
		wantEvent string
		wantJSON  bool
		wantErr   bool
	}{
		{args: []string{"~/x.sh --flag"}, wantCmd: "~/x.sh --flag"},
		{args: []string{"x", "--event", "pre_tool_call", "--json"}, wantCmd: "x", wantEvent: "pre_tool_call", wantJSON: true},
		{args: nil, wantErr: true},
		{args: []string{"a", "b"}, wantErr: true},
		{args: []string{"a", "--bogus"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got := parsed(t, newCmdDiff, tt.wantErr, tt.args...)
			if !tt.wantErr && (got.Command != tt.wantCmd || got.Event != tt.wantEvent || got.JSON != tt.wantJSON) {
				t.Errorf("got %+v", got)
			}
		})
	}
}

// diffHarness approves guard.sh, then edits it.
func diffHarness(t *testing.T) *cliHarness {
	t.Helper()
	h := newHarness(t)
	h.write(t, "guard.sh", "#!/bin/sh\necho old\nexit 0\n", 0o755)
	h.write(t, "same.sh", "#!/bin/sh\nexit 0\n", 0o755)
	h.write(t, "config.yaml", `hooks:
  pre_tool_call:
    - command: ~/.hermes/guard.sh
      timeout: 5
    - command: ~/.hermes/same.sh
      timeout: 5
`, 0o644)
	h.acceptAll(t)
	h.write(t, "guard.sh", "#!/bin/sh\necho new\nexit 0\n", 0o755)
	return h
}

func TestDiffRunColoursAtTerminal(t *testing.T) {
	for _, tty := range []bool{false, true} {
		h := diffHarness(t)
		h.ios.SetTTY(tty)
		if code := h.run("hooks", "diff", "~/.hermes/guard.sh"); code != ExitFailed {
			t.Fatalf("tty %v: exit %d, want 1 (changed)", tty, code)
		}
		out := h.out.String()
		if plain := withoutSGR(out); !strings.Contains(plain, "\n-echo old\n+echo new\n exit 0\n") {
			t.Errorf("tty %v: no diff in\n%s", tty, plain)
		}
		if tty {
			for _, want := range []string{"\x1b[31m-echo old\x1b[0m\n", "\x1b[32m+echo new\x1b[0m\n", "\x1b[36m@@ -1,3 +1,3 @@\x1b[0m\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("at a terminal stdout lacks %q:\n%q", want, out)
				}
			}
		} else if strings.Contains(out, "\x1b[") {
			t.Errorf("colour codes off a terminal: %q", out)
		}
	}
}

func TestDiffRunExitCodes(t *testing.T) {
	tests := []struct {
		args       []string
		want       int
		wantOut    string
		wantStderr string
	}{
		{[]string{"~/.hermes/guard.sh"}, ExitFailed, "+echo new", ""},
		{[]string{"~/.hermes/same.sh"}, ExitOK, "No change: ", ""},
		{[]string{"~/.hermes/same.sh", "--event", "pre_tool_call"}, ExitOK, "No change: ", ""},
		{[]string{"~/.hermes/same.sh", "--event", "post_tool_call"}, ExitUsage, "", "is not configured"},
		{[]string{"~/.hermes/other.sh"}, ExitUsage, "", "is not configured"},
		{[]string{"~/.hermes/same.sh", "--json"}, ExitOK, `"status": "unchanged"`, ""},
		{[]string{"~/.hermes/guard.sh", "--json"}, ExitFailed, `"status": "changed"`, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			h := diffHarness(t)
			if code := h.run(append([]string{"hooks", "diff"}, tt.args...)...); code != tt.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tt.want, h.out, h.err)
			}
			if !strings.Contains(h.out.String(), tt.wantOut) || !strings.Contains(h.err.String(), tt.wantStderr) {
				t.Errorf("stdout %q stderr %q; want %q / %q", h.out, h.err, tt.wantOut, tt.wantStderr)
			}
		})
	}
}

// At a terminal, run-event asks again about a pinned hook whose script
// changed, showing the diff; the default is No, and yes records the new
// hash (approved_via prompt).
func TestRunEventPromptShowsDiffOfModifiedHook(t *testing.T) {
	for _, answer := range []bool{false, true} {
		h := diffHarness(t)
		h.ios.SetTTY(true)
		h.ios.SetNoColor(true)
		h.prompter.confirms = []bool{answer}
		if code := h.run("hooks", "run-event", "pre_tool_call", "--json"); code != 0 {
			t.Fatalf("exit %d: %s", code, h.err)
		}
		// With --json the prompt talks on stderr; stdout is only the document.
		if !json.Valid(h.out.Bytes()) {
			t.Errorf("stdout is not one JSON document:\n%s", h.out)
		}
		out := h.err.String()
		for _, want := range []string{"command: ~/.hermes/guard.sh", "needs re-approval (script modified since approval (", "    -echo old\n    +echo new\n",
			"Commands run with your full user credentials. Only approve commands you trust."} {
			if !strings.Contains(out, want) {
				t.Errorf("prompt lacks %q:\n%s", want, out)
			}
		}
		if len(h.prompter.asked) != 1 || h.prompter.defaults[0] {
			t.Errorf("asked %q with defaults %v; want one question defaulting to No", h.prompter.asked, h.prompter.defaults)
		}
		approvals := h.approvals(t)
		var via string
		for _, a := range approvals {
			if a["command"] == "~/.hermes/guard.sh" {
				via, _ = a["approved_via"].(string)
			}
		}
		if wantVia := map[bool]string{false: "accept", true: "prompt"}[answer]; via != wantVia {
			t.Errorf("answer %v: approved_via %q, want %q", answer, via, wantVia)
		}
		if skipped := strings.Contains(h.out.String(), `"skip_reason": "modified since approval (`); skipped == answer {
			t.Errorf("answer %v: skipped %v", answer, skipped)
		}
	}
}
