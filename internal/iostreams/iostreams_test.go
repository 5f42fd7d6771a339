package iostreams

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

// TestInputWaiting: data waiting on stdin is seen without being read, in
// a file (from the current offset) or a pipe; an empty file or pipe,
// /dev/null and a stdin that is not a file hold nothing.
func TestInputWaiting(t *testing.T) {
	dir := t.TempDir()
	waiting := func(in io.Reader) bool { return (&IOStreams{In: in}).InputWaiting() }
	open := func(name, content string) *os.File {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	full := open("payload.json", `{"tool_name": "terminal"}`)
	if !waiting(full) {
		t.Error("a file with a payload: nothing waiting")
	}
	buf := make([]byte, 100)
	if n, _ := full.Read(buf); n == 0 || waiting(full) {
		t.Errorf("a file read to its end (%d bytes): still waiting", n)
	}
	if waiting(open("empty.json", "")) {
		t.Error("an empty file: waiting")
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if waiting(r) {
		t.Error("an empty pipe: waiting")
	}
	if _, err := w.WriteString("{}"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if !waiting(r) {
		t.Error("a pipe with bytes waiting: nothing waiting")
	}
	if n, _ := r.Read(buf); n != 2 {
		t.Errorf("the check consumed the pipe: read %d bytes, want 2", n)
	}

	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if waiting(devnull) {
		t.Error("/dev/null: waiting")
	}
	if waiting(strings.NewReader("{}")) {
		t.Error("a stdin that is not a file: waiting")
	}
}
