//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// SPEC §13 rule 12: a SIGINT or SIGTERM sent from outside (kill, a
// supervisor, a closing terminal emulator) ends hermes with 130 at a
// prompt, although survey reads the terminal in raw mode and never sees
// it as a key; and nothing is written. Without the handler the process
// waits for a key and the test fails at failAfter.

// signalAtPrompt sends sig once the prompt reads the keyboard, and expects
// exit 130 with "interrupted".
func signalAtPrompt(t *testing.T, s *session, sig syscall.Signal) {
	t.Helper()
	s.atKeyboard()
	if err := s.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	s.exits(130)
	s.shows("interrupted")
}

func TestPromptRunEventSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			home, _ := oneHookHome(t)
			s := runEventAtTerminal(t, home)
			s.expect("Allow this hook to run?")
			signalAtPrompt(t, s, sig)
			notApproved(t, home, sig.String())
		})
	}
}

func TestPromptAcceptConfirmSIGTERM(t *testing.T) {
	t.Parallel()
	home, _ := oneHookHome(t)
	s := startAtTerminal(t, home, "hooks", "accept", "--all")
	s.expect("Approve 1 hook(s)?")
	signalAtPrompt(t, s, syscall.SIGTERM)
	notApproved(t, home, "SIGTERM")
}

func TestPromptAcceptChecklistSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			home, _ := threeHooksHome(t)
			allowlist := filepath.Join(home, ".hermes", "shell-hooks-allowlist.json")
			before, err := os.ReadFile(allowlist)
			if err != nil {
				t.Fatal(err)
			}
			s := startAtTerminal(t, home, "hooks", "accept")
			s.expect("Approve which hooks?", "fresh.sh")
			s.press(" ", "> [x]") // a hook is ticked: only Enter is missing
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			s.exits(130)
			s.shows("interrupted")
			if after, err := os.ReadFile(allowlist); err != nil || !bytes.Equal(after, before) {
				t.Errorf("%s at the checklist changed the allowlist (%v):\n%s\nwas:\n%s", sig, err, after, before)
			}
		})
	}
}
