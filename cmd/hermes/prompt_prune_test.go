//go:build unix

package main

import (
	"path/filepath"
	"testing"
)

// prune at a terminal asks before removing stale entries, defaulting to No.
func staleHome(t *testing.T) string {
	t.Helper()
	home, _ := oneHookHome(t)
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	writeFile(t, filepath.Join(home, ".hermes", "config.yaml"), "hooks: {}\n", 0o644)
	return home
}

func TestPromptPruneAsks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		keys string
		left int
	}{{"\r", 1}, {"y\r", 0}} {
		home := staleHome(t)
		s := startAtTerminal(t, home, "hooks", "prune")
		s.expect("on_session_start  ~/.hermes/hook.sh", "Remove 1 stale allowlist entry(ies)?")
		s.atKeyboard()
		s.send(c.keys)
		s.exits(0)
		if got := approvals(t, home); len(got) != c.left {
			t.Errorf("after %q the allowlist holds %+v, want %d entries", c.keys, got, c.left)
		}
	}
}

// SPEC §13.2 rule 4, the attack of issue 18: while prune's question is
// open, the hook is configured again and approved anew (as `new --approve`
// would). Yes then removes only what was shown: the new approval stays.
func TestPromptPruneKeepsWhatWasApprovedMeanwhile(t *testing.T) {
	t.Parallel()
	home := staleHome(t)
	s := startAtTerminal(t, home, "hooks", "prune")
	s.expect("on_session_start  ~/.hermes/hook.sh", "Remove 1 stale allowlist entry(ies)?")
	writeFile(t, filepath.Join(home, ".hermes", "config.yaml"), oneHookConfig, 0o644)
	runOffTerminal(t, home, "hooks", "accept", "~/.hermes/hook.sh", "--yes")
	s.atKeyboard()
	s.send("y\r")
	s.exits(0)
	if got := approvals(t, home); len(got) != 1 || got[0].Command != "~/.hermes/hook.sh" {
		t.Errorf("the approval made while prune asked was removed: %+v", got)
	}
}
