package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// holder takes the lock on its own open file description, as another
// process would.
func holder(t *testing.T, path string) (release func()) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }
}

func TestLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(path, Wait{})
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("lock file: %v %v", fi, err)
	}
	_, err = Lock(path, Wait{Timeout: 20 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("second Lock while held: %v, want ErrTimeout", err)
	}
	unlock()
	unlock2, err := Lock(path, Wait{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	unlock2()
}

// TestLockGrantedOnRelease: a waiter blocked in flock gets the lock when
// the holder lets go, and Notify said it was waiting.
func TestLockGrantedOnRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release := holder(t, path)
	notified := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		unlock, err := Lock(path, Wait{Notify: func() { close(notified) }, NotifyAfter: time.Millisecond})
		if err == nil {
			unlock()
		}
		done <- err
	}()
	<-notified
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestAbandonedWaitDoesNotKeepTheLock: a wait ended by the context returns
// at once, and when the holder releases, the abandoned flock (granted
// later) lets go at once too: a third taker gets the lock.
func TestAbandonedWaitDoesNotKeepTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release := holder(t, path)
	for range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() {
			_, err := Lock(path, Wait{Context: ctx, Notify: cancel, NotifyAfter: time.Millisecond})
			errc <- err
		}()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("abandoned Lock = %v, want context.Canceled", err)
		}
	}
	release()
	unlock, err := Lock(path, Wait{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("an abandoned wait kept the lock: %v", err)
	}
	unlock()
}

func TestLockCancelledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Lock(filepath.Join(t.TempDir(), "x.lock"), Wait{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestLockFileReplaced: a lock file removed while a process waits is not
// the one locked: Lock ends on the file now at the path.
func TestLockFileReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release := holder(t, path)
	done := make(chan error, 1)
	waiting := make(chan struct{})
	go func() {
		unlock, err := Lock(path, Wait{Notify: func() { close(waiting) }, NotifyAfter: time.Millisecond})
		if err == nil {
			// Held on the file at path: another opener is excluded.
			f, _ := os.OpenFile(path, os.O_RDWR, 0)
			if f != nil {
				if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
					err = errors.New("lock taken on a file no longer at the path")
				}
				f.Close()
			}
			unlock()
		}
		done <- err
	}()
	<-waiting
	os.Remove(path)
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestLockOpenError(t *testing.T) {
	_, err := Lock(filepath.Join(t.TempDir(), "no", "x.lock"), Wait{})
	var oe *ErrOpen
	if !errors.As(err, &oe) {
		t.Fatalf("got %v", err)
	}
}
