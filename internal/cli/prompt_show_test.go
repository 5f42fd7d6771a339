package cli

import (
	"fmt"
	"strings"
	"testing"
)

// SPEC §13.7: the run-event prompt for a never-approved hook shows the
// script's sha256 and its first 40 lines, and says how to see the rest.
func TestPromptShowsFirstFortyLines(t *testing.T) {
	h := newHookHarness(t, "hooks:\n  on_session_start:\n    - command: \"~/long.sh\"\n", true)
	var body strings.Builder
	body.WriteString("#!/bin/sh\n")
	for i := 2; i <= 45; i++ {
		fmt.Fprintf(&body, "echo line %d\n", i)
	}
	h.write(t, "long.sh", body.String(), 0o755)
	h.prompter.confirms = []bool{false}
	if code := h.run("hooks", "run-event", "on_session_start"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	shown := withoutSGR(h.out.String() + h.err.String())
	for _, want := range []string{"sha256:  ", "│ #!/bin/sh", "│ echo line 40", "… 5 more line(s): see them all with: hermes hooks accept '~/long.sh' --show"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the prompt does not show %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "echo line 41") {
		t.Errorf("the prompt shows more than 40 lines:\n%s", shown)
	}
}

// SPEC §13.3: the checklist shows a hook whose script cannot be read, but
// does not offer it (an approval of it would pin nothing).
func TestChecklistDoesNotOfferUnreadableScripts(t *testing.T) {
	h := newHookHarness(t, "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n    - command: \"~/gone.sh\"\n", true)
	h.prompter.picks = [][]int{{0}}
	if code := h.run("hooks", "accept"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	if len(h.prompter.options) != 1 || len(h.prompter.options[0]) != 1 || !strings.Contains(h.prompter.options[0][0], "~/hook.sh") {
		t.Fatalf("checklist options = %q; want only ~/hook.sh", h.prompter.options)
	}
	shown := withoutSGR(h.out.String() + h.err.String())
	if !strings.Contains(shown, "on_session_start  ~/gone.sh  [cannot be approved: ") {
		t.Errorf("the unreadable hook is not shown with why it cannot be approved:\n%s", shown)
	}
	for _, e := range h.entries(t) {
		if e.Command == "~/gone.sh" {
			t.Errorf("the unreadable hook was approved: %+v", e)
		}
	}
}
