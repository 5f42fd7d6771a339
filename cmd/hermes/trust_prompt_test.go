//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// SPEC §13.6, what was shown is what is recorded: the script changes while
// the run-event question is open. The yes does not approve the new content;
// the person is told and asked again, with the new content shown.
func TestPromptRunEventScriptSwappedWhileAsking(t *testing.T) {
	t.Parallel()
	home, script := oneHookHome(t)

	s := runEventAtTerminal(t, home)
	s.expect("Allow this hook to run?", "sha256:  "+sha256Of(t, script), "│ # old line")
	s.atKeyboard()
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# swapped in", 1), 0o755)
	s.send("y\r")
	s.expect("The script changed while you were reading it: nothing was approved. Here it is again.", "│ # swapped in")
	s.atKeyboard()
	s.send("y\r")
	s.exits(0)
	// Recorded: the content shown the second time, which is what ran.
	approvedAtPrompt(t, home, script)
}

// Declining the second time records nothing and runs nothing.
func TestPromptRunEventScriptSwappedThenDeclined(t *testing.T) {
	t.Parallel()
	home, script := oneHookHome(t)

	s := runEventAtTerminal(t, home)
	s.expect("Allow this hook to run?")
	s.atKeyboard()
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# swapped in", 1), 0o755)
	s.send("y\r")
	s.expect("Here it is again.")
	s.atKeyboard()
	s.send("\r")
	s.exits(0)
	notApproved(t, home, "declining the new content")
}

// The same rule for `accept COMMAND` at a terminal (its confirmation) and
// for the interactive checklist.
func TestPromptAcceptScriptSwappedWhileAsking(t *testing.T) {
	t.Parallel()
	home, script := oneHookHome(t)
	oldSum := sha256Of(t, script)

	s := startAtTerminal(t, home, "hooks", "accept", "~/.hermes/hook.sh")
	s.expect("Approve 1 hook(s)?", "sha256:  "+oldSum)
	s.atKeyboard()
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# swapped in", 1), 0o755)
	s.send("y\r")
	s.expect("changed while you were reading: nothing was approved", "│ # swapped in")
	s.atKeyboard()
	s.send("y\r")
	s.exits(0)
	got := approvals(t, home)
	if len(got) != 1 || got[0].SHA256 != sha256Of(t, script) || got[0].SHA256 == oldSum {
		t.Fatalf("approvals = %+v; want the swapped-in content's hash, shown before the second yes", got)
	}
}

func TestPromptAcceptChecklistScriptSwapped(t *testing.T) {
	t.Parallel()
	home, script := oneHookHome(t)
	option := "on_session_start  ~/.hermes/hook.sh  [never approved] - script: " + filepath.Join(home, ".hermes", "hook.sh")

	s := startAtTerminal(t, home, "hooks", "accept")
	s.expect("> [ ]  " + option)
	s.press(" ", "> [x]  "+option)
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# swapped in", 1), 0o755)
	s.send("\r")
	s.expect("changed while you were reading: nothing was approved for it. Here it is again.", "│ # swapped in", "> [ ]  "+option)
	s.press(" ", "> [x]  "+option)
	s.press(" ", "> [ ]  "+option)
	s.send("\r") // nothing ticked the second time
	s.exits(0)
	if got := approvals(t, home); len(got) != 0 {
		t.Fatalf("approvals = %+v; the content ticked was not the content there", got)
	}
}
