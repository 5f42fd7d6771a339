package allowlist

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
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

// holdLock takes the allowlist's lock through its own open file, as
// another process would, until the test releases it.
func holdLock(t *testing.T, s *Store) (release func()) {
	t.Helper()
	f, err := os.OpenFile(s.LockPath(), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { f.Close() }) }
	t.Cleanup(release)
	return release
}

func approveOne(l *List) error {
	l.Approve(NewEntry("on_session_start", "/x.sh", ViaAccept, Fingerprint{Err: ErrNoScript}, time.Now()))
	return nil
}

func TestUpdateGivesUpAfterTheLockTimeout(t *testing.T) {
	s := Open(t.TempDir())
	holdLock(t, s)
	s.Wait = LockWait{Timeout: 20 * time.Millisecond}
	_, err := s.Update(approveOne)
	if !errors.Is(err, ErrLockTimeout) || !strings.Contains(err.Error(), s.LockPath()) || !strings.Contains(err.Error(), "--lock-timeout") {
		t.Fatalf("Update = %v, want ErrLockTimeout naming the lock and --lock-timeout", err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the allowlist was written after the lock timed out: %v", err)
	}
}

func TestUpdateWaitEndsWithTheContextAndWritesNothing(t *testing.T) {
	s := Open(t.TempDir())
	holdLock(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	notified := make(chan struct{})
	s.Wait = LockWait{Context: ctx, NotifyAfter: time.Millisecond, Notify: func() { close(notified) }}
	done := make(chan error)
	go func() {
		_, err := s.Update(approveOne)
		done <- err
	}()
	<-notified // it is waiting, and said so
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Update = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the allowlist was written after the interrupt: %v", err)
	}
}

func TestUpdateTakesTheLockWhenReleased(t *testing.T) {
	s := Open(t.TempDir())
	release := holdLock(t, s)
	notified := make(chan struct{})
	s.Wait = LockWait{NotifyAfter: time.Millisecond, Notify: func() { close(notified) }}
	done := make(chan error)
	go func() {
		_, err := s.Update(approveOne)
		done <- err
	}()
	<-notified
	release()
	if err := <-done; err != nil {
		t.Fatalf("Update after the lock was released: %v", err)
	}
	l, _, err := s.Read()
	if err != nil || len(l.Approvals) != 1 {
		t.Fatalf("allowlist after the wait: %v, %v", l, err)
	}
}

func TestUpdateCancelledDuringFnWritesNothing(t *testing.T) {
	s := Open(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	s.Wait = LockWait{Context: ctx}
	_, err := s.Update(func(l *List) error {
		cancel() // the interrupt arrives while the change is being made
		return approveOne(l)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Update = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the allowlist was written after the interrupt: %v", err)
	}
}

func TestReadRefusesAFIFO(t *testing.T) {
	s := Open(t.TempDir())
	if err := syscall.Mkfifo(s.Path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, _, err := s.Read() // would block forever on a plain open
	if err == nil || !strings.Contains(err.Error(), "FIFO") {
		t.Fatalf("Read of a FIFO allowlist = %v, want an error saying it is a FIFO", err)
	}
}
