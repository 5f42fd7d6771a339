package allowlist

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hermes-hooks/hermes/internal/filelock"
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
// function that releases it. The wait is a blocking flock (filelock), fair
// to the agent's own blocking waits, that ends on ctx, on the timeout, or
// with the lock, whichever comes first.
func lockWait(ctx context.Context, path string, w LockWait) (unlock func(), err error) {
	timeout, notifyAfter := w.Timeout, w.NotifyAfter
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}
	if notifyAfter <= 0 {
		notifyAfter = DefaultLockNotify
	}
	unlock, err = filelock.Lock(path, filelock.Wait{Context: ctx, Timeout: timeout, Notify: w.Notify, NotifyAfter: notifyAfter})
	var te *filelock.TimeoutError
	var oe *filelock.ErrOpen
	switch {
	case errors.As(err, &te):
		return nil, fmt.Errorf("%w %s after %s (held by another hermes or the agent); try again later, or wait longer with --lock-timeout",
			ErrLockTimeout, path, te.Waited.Round(time.Millisecond))
	case errors.As(err, &oe):
		return nil, fmt.Errorf("cannot open the allowlist lock %s: %w", path, oe.Err)
	}
	return unlock, err
}
