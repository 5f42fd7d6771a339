//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestFailClosedClosesTheGap is SPEC §25's proof through the agent's own
// runner: a fail-closed hook that dies by a signal, or exits non-zero (not
// 2) with nothing on stdout, is let through by the agent when bare, and
// blocked when protected with --fail-closed; every other result reaches
// the agent unchanged.
func TestFailClosedClosesTheGap(t *testing.T) {
	l := newLab(t)
	cases := []struct {
		name, body string
		// closed is the guard's reason when it closes the gap, "" when the
		// result must pass unchanged.
		closed string
	}{
		{"killed by SIGKILL", "cat >/dev/null\nkill -KILL $$\n", "killed by SIGKILL"},
		{"killed by SIGTERM after printing", "echo partial >&2\nkill -TERM $$\n", "killed by SIGTERM"},
		{"exit 1, no output", "cat >/dev/null\nexit 1\n", "exit 1"},
		{"exit 127 (a missing jq)", "jq-that-is-not-there .tool_name\n", "exit 127"},
		{"exit 3, white space only", "printf ' \\n\\t'\nexit 3\n", "exit 3"},
		{"exit 1 with {}", "echo '{}'\nexit 1\n", ""},
		{"exit 1 with a block", "echo '{\"action\": \"block\", \"message\": \"no\"}'\nexit 1\n", ""},
		{"exit 1 with garbage", "echo oops\nexit 1\n", ""},
		{"exit 2", "echo 'denied' >&2\nexit 2\n", ""},
		{"exit 0, nothing", "cat >/dev/null\n", ""},
		{"exit 0, approve", "echo '{\"action\": \"approve\"}'\n", ""},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l.t = t
			script := l.script(fmt.Sprintf("fc%d.sh", i), tc.body)
			bare := l.runAs("pre_tool_call", true, []string{script}, payload, 10)
			wrapped := l.protect("pre_tool_call", true, script)
			guarded := l.runAs("pre_tool_call", true, wrapped, payload, 10)
			if tc.closed == "" {
				// The agent names the hook by its argv: the wrapped one differs.
				sameAnswer := strings.ReplaceAll(string(guarded.Answer), strings.Join(wrapped, " "), script) == string(bare.Answer)
				if bare.ReturnCode != guarded.ReturnCode || bare.Stdout != guarded.Stdout || !sameAnswer {
					t.Errorf("changed by the guard: bare (%d, %q, %s), protected (%d, %q, %s)",
						bare.ReturnCode, bare.Stdout, bare.Answer, guarded.ReturnCode, guarded.Stdout, guarded.Answer)
				}
				return
			}
			if string(bare.Answer) != "null" {
				t.Fatalf("the bare hook was not let through by the agent (answer %s): the case tests nothing", bare.Answer)
			}
			var ans struct{ Action, Message string }
			if err := json.Unmarshal(guarded.Answer, &ans); err != nil {
				t.Fatal(err)
			}
			want := "hook " + script + " failed closed: " + tc.closed
			if guarded.ReturnCode != 2 || ans.Action != "block" || ans.Message != want {
				t.Errorf("protected: returncode %d, answer %s; want 2 and a block %q", guarded.ReturnCode, guarded.Answer, want)
			}
			if !strings.HasSuffix(guarded.Stdout, "\n") {
				t.Errorf("stdout %q does not end with a newline", guarded.Stdout)
			}
		})
	}
}
