package iostreams

import "testing"

func TestColourOnlyAtATerminal(t *testing.T) {
	s, _, _, _ := Test()
	if s.ColorEnabled() || s.Colors().Green("x") != "x" {
		t.Error("colour when stdout is not a terminal")
	}
	s.SetTTY(true)
	if got := s.Colors().Green("x"); got != "\x1b[32mx\x1b[0m" {
		t.Errorf("Green at a terminal = %q", got)
	}
	s.SetNoColor(true)
	if s.ColorEnabled() || s.Colors().Red("x") != "x" {
		t.Error("colour despite --no-color")
	}
	// The symbols stay without colour: the agent's users know them.
	if p := s.Colors(); p.SuccessIcon() != "✓" || p.WarningIcon() != "⚠" || p.FailureIcon() != "✗" || p.InfoIcon() != "ℹ" {
		t.Error("status symbols changed")
	}
}

func TestPromptStream(t *testing.T) {
	s, _, out, errOut := Test()
	if s.CanPrompt() {
		t.Error("can prompt off a terminal")
	}
	s.SetTTY(true)
	if !s.CanPrompt() || s.PromptOut() != out {
		t.Error("at a terminal, prompts should talk on stdout")
	}
	// --json: stdout is for the document, prompts move to stderr.
	s.SetPromptOnStderr(true)
	if s.PromptOut() != errOut {
		t.Error("with --json, prompts should talk on stderr")
	}
	// Buffers are not files: no prompt library can use them.
	if _, _, ok := s.Terminal(); ok {
		t.Error("Terminal() ok for in-memory streams")
	}
}
