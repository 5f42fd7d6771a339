package cli

import (
	"context"
	"strings"
	"testing"
)

func TestPlainHooksCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"hooks", "run-event", "pre_tool_call", "-"}, "run-event"},
		{[]string{"--home", "/h", "-p", "work", "--config=/c.yaml", "-v", "--accept-hooks", "hooks", "list", "--json"}, "list"},
		{[]string{"--lock-timeout", "5", "--no-color", "hooks", "cases", "from-log"}, "cases"},
		{[]string{"--home", "hooks", "hooks", "test", "x"}, "test"}, // the flag's value is not the group
		{[]string{"hooks", "ls"}, ""},   // an alias
		{[]string{"hooks", "lsit"}, ""}, // a typo, which gets suggestions
		{[]string{"hooks"}, ""},
		{[]string{"hooks", "--verbose", "list"}, ""},
		{[]string{"hooks", "run-event", "--help"}, ""},
		{[]string{"hooks", "run-event", "-h"}, ""},
		{[]string{"hooks", "list", "-vh"}, ""},
		{[]string{"-pwork", "hooks", "list"}, ""}, // a shorthand with its value attached
		{[]string{"-p=work", "hooks", "list"}, ""},
		{[]string{"--bogus", "hooks", "list"}, ""},
		{[]string{"--help", "hooks", "list"}, ""},
		{[]string{"help", "hooks", "list"}, ""},
		{[]string{"version"}, ""},
		{[]string{"__complete", "hooks", "run-event", ""}, ""},
		{nil, ""},
	} {
		if got := plainHooksCommand(tc.args); got != tc.want {
			t.Errorf("plainHooksCommand(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// A run through the tree main builds for the invocation prints, exits and
// fails exactly as through the whole tree: the same command found, the
// same flags, the same errors and suggestions.
func TestNewRootCmdForRunsAsTheWholeTree(t *testing.T) {
	const cfg = "hooks:\n  pre_tool_call:\n    - command: \"~/hook.sh\"\n"
	invocations := [][]string{
		{"hooks", "list"},
		{"hooks", "list", "--json"},
		{"hooks", "run-event", "pre_tool_call"},
		{"hooks", "run-event", "pre_tool_call", "--json"},
		{"hooks", "run-event", "pre_tool_cal"},
		{"hooks", "run-event"},
		{"hooks", "run-event", "pre_tool_call", "--jsno"},
		{"hooks", "run-event", "pre_tool_call", "--bogus"},
		{"hooks", "test", "pre_tool_call", "--dry-run"},
		{"hooks", "events"},
		{"hooks", "doctor", "--json"},
		{"hooks", "approvals"},
		{"hooks", "cases", "nothing"},
		{"hooks", "import", "--help"},
		{"hooks", "log", "--lock-timeout", "0"},
		{"-v", "hooks", "stats", "extra"},
	}
	for _, args := range invocations {
		var outs [2]string
		var codes [2]int
		for i, forArgs := range []bool{false, true} {
			h := newHookHarness(t, cfg, false)
			h.acceptAll(t)
			full := append([]string{"--home", h.home}, args...)
			h.out.Reset()
			h.err.Reset()
			root := NewRootCmd(h.f)
			if forArgs {
				root = NewRootCmdFor(h.f, full)
			}
			codes[i] = HandleError(h.ios, Execute(context.Background(), root, full))
			outs[i] = h.out.String() + "\n--- stderr ---\n" + h.err.String()
			// Each harness has its own temporary home: compare without it.
			outs[i] = strings.ReplaceAll(outs[i], h.home, "$HOME")
		}
		if codes[0] != codes[1] || outs[0] != outs[1] {
			t.Errorf("hermes %q: whole tree exit %d:\n%s\nbuilt for the invocation exit %d:\n%s", args, codes[0], outs[0], codes[1], outs[1])
		}
	}
}
