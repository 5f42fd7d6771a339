package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHasPendingInput: data waiting on stdin is seen without being read,
// in a file (from the current offset) or a pipe; an empty file or pipe,
// and /dev/null, hold nothing.
func TestHasPendingInput(t *testing.T) {
	dir := t.TempDir()
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
	if !hasPendingInput(full) {
		t.Error("a file with a payload: nothing pending")
	}
	buf := make([]byte, 100)
	if n, _ := full.Read(buf); n == 0 || hasPendingInput(full) {
		t.Errorf("a file read to its end (%d bytes): still pending", n)
	}
	if hasPendingInput(open("empty.json", "")) {
		t.Error("an empty file: pending")
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if hasPendingInput(r) {
		t.Error("an empty pipe: pending")
	}
	if _, err := w.WriteString("{}"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if !hasPendingInput(r) {
		t.Error("a pipe with bytes waiting: nothing pending")
	}
	if got := unreadStdin(r); len(got) != 1 {
		t.Errorf("unreadStdin = %q, want one warning", got)
	}
	if n, _ := r.Read(buf); n != 2 {
		t.Errorf("the check consumed the pipe: read %d bytes, want 2", n)
	}

	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if hasPendingInput(devnull) || unreadStdin(devnull) != nil {
		t.Error("/dev/null: pending")
	}
}
