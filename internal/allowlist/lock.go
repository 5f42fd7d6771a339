package allowlist

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
)

// Defaults of LockWait.
const (
	DefaultLockTimeout = 30 * time.Second
	DefaultLockNotify  = time.Second
)

// ErrLockTimeout is returned by Update when another process held the lock
// for longer than LockWait.Timeout.
var ErrLockTimeout = errors.New("gave up waiting for the allowlist lock")

// LockWait says how Update waits for the allowlist lock while another
// process (another hermes, the agent) holds it.
type LockWait struct {
	// Context ends the wait, and stops a write not yet begun, when it is
	// done (Ctrl-C, SIGTERM). nil: never.
	Context context.Context
	// Timeout is how long to wait at most; 0 means DefaultLockTimeout.
	Timeout time.Duration
	// Notify, when set, is called once if the lock is still held after
	// NotifyAfter (0: DefaultLockNotify), so the caller can say why
	// nothing happens. It must not block.
	Notify      func()
	NotifyAfter time.Duration
}

func (w LockWait) context() context.Context {
	if w.Context == nil {
		return context.Background()
	}
	return w.Context
}

// lockWait takes an exclusive flock on path (created 0600) and returns the
// function that releases it. A held lock is polled with a non-blocking
// flock, backing off from 1 ms to 50 ms, so the wait can end on ctx, on
// the timeout, or with the lock, whichever comes first; a blocking flock
// could not be abandoned.
func lockWait(ctx context.Context, path string, w LockWait) (unlock func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the allowlist lock: %w", err)
	}
	fileowner.LikeParent(path) // root must not leave a lock the user cannot open
	fd := int(f.Fd())
	timeout, notifyAfter := w.Timeout, w.NotifyAfter
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	if notifyAfter <= 0 {
		notifyAfter = DefaultLockNotify
	}
	start := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var notify <-chan time.Time
	if w.Notify != nil {
		t := time.NewTimer(notifyAfter)
		defer t.Stop()
		notify = t.C
	}
	delay := time.Millisecond
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		wait := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			wait.Stop()
			f.Close()
			return nil, ctx.Err()
		case <-deadline.C:
			wait.Stop()
			f.Close()
			return nil, fmt.Errorf("%w %s after %s (held by another hermes or the agent); try again later, or wait longer with --lock-timeout",
				ErrLockTimeout, path, time.Since(start).Round(time.Millisecond))
		case <-notify:
			wait.Stop()
			w.Notify()
			notify = nil
		case <-wait.C:
		}
		delay = min(delay*2, 50*time.Millisecond)
	}
	return func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		f.Close()
	}, nil
}
