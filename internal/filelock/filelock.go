// Package filelock takes the exclusive flock(2) locks that hermes shares
// with the agent (the allowlist lock, the config lock), waiting the way the
// agent does — blocked in the kernel, queued with every other waiter — so a
// busy agent cannot starve hermes, yet a wait that Ctrl-C, SIGTERM or a
// timeout abandons never takes the lock later and keeps it.
package filelock

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
)

// Wait says how Lock waits while another process holds the lock.
type Wait struct {
	// Context abandons the wait when it is done (Ctrl-C, SIGTERM). nil:
	// never.
	Context context.Context
	// Timeout is how long to wait at most; 0 waits until the lock is free
	// or the context is done.
	Timeout time.Duration
	// Notify, when set, is called once if the lock is still held after
	// NotifyAfter (0: one second), so the caller can say why nothing
	// happens. It must not block.
	Notify      func()
	NotifyAfter time.Duration
}

// ErrTimeout is what a wait that reached Wait.Timeout returns (wrapped in a
// *TimeoutError).
var ErrTimeout = errors.New("gave up waiting for the lock")

// TimeoutError is a wait that ended at Wait.Timeout.
type TimeoutError struct {
	Path   string
	Waited time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("gave up waiting for the lock %s after %s", e.Path, e.Waited.Round(time.Millisecond))
}

func (e *TimeoutError) Is(target error) bool { return target == ErrTimeout }

// Lock takes an exclusive flock on path (created 0600 when missing) and
// returns the function that releases it.
//
// A held lock is waited for with a blocking flock on its own goroutine: the
// kernel wakes waiters as the lock is released, where polling with LOCK_NB
// loses every race against a process blocked in flock. When the wait is
// abandoned, the goroutine is left to finish on its own file descriptor and
// releases the lock at once if it gets it, then closes the descriptor; the
// descriptor is never closed while flock may still use it.
//
// When the lock file was replaced or removed while this process waited (so
// the lock taken is on a file nobody else opens), the lock is taken again on
// the file now at path.
func Lock(path string, w Wait) (unlock func(), err error) {
	ctx := w.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	var deadline <-chan time.Time
	if w.Timeout > 0 {
		t := time.NewTimer(w.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	var notify <-chan time.Time
	if w.Notify != nil {
		after := w.NotifyAfter
		if after <= 0 {
			after = time.Second
		}
		t := time.NewTimer(after)
		defer t.Stop()
		notify = t.C
	}
	for retake := 0; ; retake++ {
		fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
		if err != nil {
			return nil, &ErrOpen{Path: path, Err: err}
		}
		// Root must not leave a lock the user cannot open (SPEC §13.2 rule 8).
		fileowner.LikeParent(path)
		err = flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			got := make(chan error, 1)
			go func() { got <- flock(fd, syscall.LOCK_EX) }()
			err = nil
		wait:
			for {
				select {
				case err = <-got:
					break wait
				case <-ctx.Done():
					abandon(fd, got)
					return nil, ctx.Err()
				case <-deadline:
					abandon(fd, got)
					return nil, &TimeoutError{Path: path, Waited: time.Since(start)}
				case <-notify:
					notify = nil
					w.Notify()
				}
			}
		}
		if err != nil {
			syscall.Close(fd)
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		if retake >= maxRetake || samePath(fd, path) {
			return func() {
				_ = flock(fd, syscall.LOCK_UN)
				syscall.Close(fd)
			}, nil
		}
		_ = flock(fd, syscall.LOCK_UN)
		syscall.Close(fd)
	}
}

// maxRetake bounds how often a lock is taken again because its file was
// replaced meanwhile.
const maxRetake = 10

// ErrOpen is a lock file that cannot be opened or created.
type ErrOpen struct {
	Path string
	Err  error
}

func (e *ErrOpen) Error() string {
	return fmt.Sprintf("cannot open the lock file %s: %v", e.Path, e.Err)
}
func (e *ErrOpen) Unwrap() error { return e.Err }

// abandon hands an unfinished blocking flock to a goroutine that releases
// the lock as soon as it is granted and closes the descriptor.
func abandon(fd int, got <-chan error) {
	go func() {
		if err := <-got; err == nil {
			_ = flock(fd, syscall.LOCK_UN)
		}
		syscall.Close(fd)
	}()
}

// flock retries on EINTR (a signal delivered to the thread blocked in it).
func flock(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// samePath: the file locked through fd is still the one at path.
func samePath(fd int, path string) bool {
	var a, b syscall.Stat_t
	if syscall.Fstat(fd, &a) != nil || syscall.Stat(path, &b) != nil {
		return false
	}
	return a.Dev == b.Dev && a.Ino == b.Ino
}
