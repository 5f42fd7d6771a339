package allowlist

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// tryLock reports whether a non-blocking exclusive flock on path succeeds
// through a fresh open file (flock conflicts between open files even within
// one process).
func tryLock(t *testing.T, path string) bool {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}
