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
// config open for writing (a program rewriting it in place, stalled), every
// read says so, and readStable settles only after writerQuietFor of
// agreeing reads and no modification.
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
	if s, err := readOnce(path); err != nil || !s.writerOpen {
		t.Fatalf("with a writer mid-save: writerOpen=%v, %v", s.writerOpen, err)
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

// TestReadStableIdleWriter: a process holds the config open for writing and
// never writes (an editor, a log shipper; SPEC §29 item 8). readStable
// settles on the file as it is, after the quiet period, instead of giving
// up after settleWithin.
func TestReadStableIdleWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s, err := readStable(context.Background(), path, nil)
	if err != nil || string(s.data) != "a: 1\n" || !s.parsed {
		t.Fatalf("idle writer: %q parsed=%v, %v", s.data, s.parsed, err)
	}
	// The read before the rename reuses the first read's agreement.
	if _, err := readStable(context.Background(), path, &s); err != nil {
		t.Fatalf("second read: %v", err)
	}
}
