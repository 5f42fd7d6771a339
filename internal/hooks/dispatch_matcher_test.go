package hooks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// SPEC §13.2 rule 5: a matcher that cannot decide blocks for a fail-closed
// pre_tool_call hook and is no match (with a warning) for an ordinary one.
// With the firing's matcher budget spent (here: none to start with), no
// matcher runs at all: forty hostile hooks cost the budget, not forty
// timeouts.
func TestDispatchMatcherTimeout(t *testing.T) {
	old := hookspec.FiringMatchBudget
	hookspec.FiringMatchBudget = 0
	defer func() { hookspec.FiringMatchBudget = old }()
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n")
	b.WriteString("    - command: \"~/hook.sh plain\"\n      matcher: \"term.*\"\n")
	b.WriteString("    - command: \"~/hook.sh guard\"\n      matcher: \"term.*\"\n      fail_closed: true\n")
	for i := range 40 {
		fmt.Fprintf(&b, "    - command: \"~/hook.sh h%d\"\n      matcher: \"(a|aa)+b\"\n", i)
	}
	runner := &fakeRunner{}
	e := testEngine(t, b.String(), runner)
	approveCommands(t, e, "~/hook.sh plain", "~/hook.sh guard")
	payload := testObj(t, `{"tool_name": "terminal", "args": {}}`)
	d, err := e.DispatchShell(context.Background(), "pre_tool_call", payload, false, (&consentLog{}).consent)
	if err != nil {
		t.Fatal(err)
	}
	reasons := skipReasons(d)
	if reasons[0] != "~/hook.sh plain: "+SkipMatcher || reasons[1] != "~/hook.sh guard: "+SkipMatcherTimeout {
		t.Errorf("skip reasons %q", reasons[:2])
	}
	if !d.Blocked() || *d.Outcome.Message != "hook ~/hook.sh guard failed closed: matcher timed out" {
		t.Errorf("outcome %+v; want the guard's fail-closed block", d.Outcome)
	}
	if len(runner.ran()) != 0 {
		t.Errorf("ran %q", runner.ran())
	}
	if len(d.Warnings) != 42 || !strings.Contains(d.Warnings[0], "used up their 1s") {
		t.Errorf("warnings %d: %q", len(d.Warnings), d.Warnings)
	}

	// With the budget back, the same plain and guard hooks match and run.
	hookspec.FiringMatchBudget = old
	d, err = e.DispatchShell(context.Background(), "pre_tool_call", payload, false, (&consentLog{}).consent)
	if err != nil {
		t.Fatal(err)
	}
	if got := runner.ran(); len(got) != 2 {
		t.Errorf("ran %q; want plain and guard", got)
	}
}
