//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SPEC §13.2 rule 7 at a real terminal: a command written with ${VAR}s is
// shown as written and as it runs, the secret-named variable masked; the
// secret itself never reaches the screen.
func TestPromptShowsRunsAsWithSecretsMasked(t *testing.T) {
	t.Parallel()
	home := newHome(t, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/hook.sh --key ${API_KEY} --mode ${MODE}\"\n",
		map[string]string{"hook.sh": firingHook})
	s := startAtTerminalWith(t, home, []string{"API_KEY=s3cret-value", "MODE=fast"}, "hooks", "run-event", "on_session_start")
	s.expect("command: ~/.hermes/hook.sh --key ${API_KEY} --mode ${MODE}", "runs as: ~/.hermes/hook.sh --key *** --mode fast")
	s.answer("Allow this hook to run?", "\r")
	s.exits(0)
	if strings.Contains(s.raw.String(), "s3cret-value") {
		t.Error("the secret reached the terminal")
	}
}

// SPEC §13.2 rule 7: a re-approval with no snapshot to diff against shows
// the script and its new sha256, as a first approval does.
func TestPromptReapprovalWithoutSnapshotShowsScript(t *testing.T) {
	t.Parallel()
	home, script, before := approvedThenModified(t)
	if err := os.Remove(filepath.Join(home, ".hermes", "shell-hooks-snapshots", before.SHA256)); err != nil {
		t.Fatal(err)
	}
	s := runEventAtTerminal(t, home)
	s.expect("The script now:", "sha256:  "+sha256Of(t, script), "# new line")
	s.answer("Allow this hook to run?", "\r")
	s.exits(0)
	if fired(home) {
		t.Error("the hook fired though the answer was no")
	}
}

// SPEC §13.2 rule 1 at a terminal: a script that is there but cannot be
// hashed is not offered for approval; the prompt says why and asks
// nothing.
func TestPromptNotOfferedForUnhashableScript(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, nil)
	if err := os.Mkdir(filepath.Join(home, ".hermes", "hook.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := runEventAtTerminal(t, home)
	s.expect("not offered for approval")
	s.exits(0)
	s.showsNot("Allow this hook to run?")
	if got := approvals(t, home); len(got) != 0 {
		t.Errorf("recorded %+v", got)
	}
}
