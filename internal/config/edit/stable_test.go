package edit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestReadOnceSeesAWriter: while another open file description has the
// config open for writing (a program rewriting it in place, stalled), no
// read of it counts as whole, so readStable waits it out.
func TestReadOnceSeesAWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	probe, _ := os.Open(path)
	if _, err := unix.FcntlInt(probe.Fd(), unix.F_SETLEASE, unix.F_RDLCK); err != nil {
		probe.Close()
		t.Skipf("no file leases here (%v): the quiet time alone decides", err)
	}
	unix.FcntlInt(probe.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
	probe.Close()

	if s, err := readOnce(path); err != nil || !s.whole {
		t.Fatalf("no writer: whole=%v, %v", s.whole, err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString("a:")
	if s, err := readOnce(path); err != nil || s.whole {
		t.Fatalf("with a writer mid-save: whole=%v, %v", s.whole, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := readStable(ctx, path, nil); err == nil {
		t.Fatal("readStable settled on a file open for writing")
	}
	w.WriteString(" 2\n")
	w.Close()
	s, err := readStable(context.Background(), path, nil)
	if err != nil || string(s.data) != "a: 2\n" || s.settings != 1 {
		t.Fatalf("after the writer closed: %q %d %v", s.data, s.settings, err)
	}
}
