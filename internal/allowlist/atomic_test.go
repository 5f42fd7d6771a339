package allowlist

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A writer killed between creating its temp file and renaming it leaves
// the temp file behind; the next update removes it once it is stale, and
// leaves a fresh one (a write in progress) alone.
func TestUpdateRemovesStaleTempFiles(t *testing.T) {
	home := t.TempDir()
	s := Open(home)
	stale := filepath.Join(home, "."+FileName+".tmp-123")
	fresh := filepath.Join(home, "."+FileName+".tmp-456")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte(`{"approvals": [`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(l *List) error {
		l.Approve(Entry{Event: "pre_tool_call", Command: "x"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp file removed: %v", err)
	}
}

// TestUpdateUnderFaults: a step of the write failing (the Fault seam)
// leaves the allowlist as it was and no temporary file; the folder sync
// failing after the rename is a *DirSyncError, with the new file in place.
func TestUpdateUnderFaults(t *testing.T) {
	defer func() { Fault = nil }()
	approve := func(s *Store, cmd string) error {
		_, err := s.Update(func(l *List) error {
			l.Approve(Entry{Event: "pre_tool_call", Command: cmd})
			return nil
		})
		return err
	}
	for _, op := range []string{"create", "write", "sync", "rename"} {
		home := t.TempDir()
		s := Open(home)
		if err := approve(s, "first"); err != nil {
			t.Fatal(err)
		}
		before, _ := os.ReadFile(s.Path)
		Fault = func(o, path string) error {
			if o == op {
				return &os.PathError{Op: o, Path: path, Err: syscall.EIO}
			}
			return nil
		}
		err := approve(s, "second")
		Fault = nil
		var unsynced *DirSyncError
		if err == nil || errors.As(err, &unsynced) || !errors.Is(err, syscall.EIO) || !strings.Contains(err.Error(), "cannot save the allowlist") {
			t.Errorf("%s fails: error %v, want cannot save … EIO", op, err)
		}
		if after, _ := os.ReadFile(s.Path); !bytes.Equal(after, before) {
			t.Errorf("%s fails: the allowlist changed", op)
		}
		if m, _ := filepath.Glob(filepath.Join(home, ".*.tmp-*")); len(m) > 0 {
			t.Errorf("%s fails: temporary files left: %q", op, m)
		}
	}

	home := t.TempDir()
	s := Open(home)
	Fault = func(o, path string) error {
		if o == "syncdir" {
			return syscall.EIO
		}
		return nil
	}
	err := approve(s, "x")
	var unsynced *DirSyncError
	if !errors.As(err, &unsynced) || unsynced.Dir != home || !strings.Contains(err.Error(), "was replaced, but its folder") {
		t.Fatalf("folder sync fails: %v, want a DirSyncError for %s", err, home)
	}
	Fault = nil
	l, _, err := s.Read()
	if err != nil || len(l.Approvals) != 1 || l.Approvals[0].Command != "x" {
		t.Fatalf("after the folder sync failed, the list reads %v (%v); want the approval", l, err)
	}
}
