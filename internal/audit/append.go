package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
)

// RotateSize is the size past which the log is rotated: hooks.jsonl
// becomes hooks.jsonl.1 (replacing the one before) and a new hooks.jsonl
// begins, so the log never holds much more than twice this.
const RotateSize = 16 << 20

// LockTimeout bounds the wait for another writer's lock. A writer holds it
// for one write, so a wait this long means a stopped process: the line is
// given up (an error the caller warns about) rather than the agent kept
// waiting.
const LockTimeout = 10 * time.Second

// Seams for tests: the size that triggers rotation, and the write and
// truncate calls (a full disk is hard to come by).
var (
	rotateSize     = int64(RotateSize)
	keptRotateSize = int64(KeptRotateSize)
	lockTimeout    = LockTimeout
	writeFile      = func(f *os.File, b []byte) (int, error) { return f.Write(b) }
	truncate       = func(f *os.File, size int64) error { return f.Truncate(size) }
)

// LockPath is the lock every writer takes for one append. It is a file of
// its own, never rotated, so writers that opened the log before a rotation
// and writers that open it after wait in one queue.
func LockPath(home string) string { return Path(home) + ".lock" }

// RotatedPath is where the log's previous contents are kept.
func RotatedPath(path string) string { return path + ".1" }

// appendLine writes line (ending in a newline) to the log at path,
// waiting for the lock at most LockTimeout.
func appendLine(path string, line []byte) error {
	return writeLocked(path, Entry{Line: line}, lockTimeout)
}

// writeLocked writes e under the log's lock:
//
//   - under an exclusive flock of path+".lock", so writers never interleave
//     and rotation happens once, by one writer, while the others wait (a
//     wait of at most wait; wait 0: not at all, ErrBusy);
//   - when e carries an id another line of the log already has, nothing is
//     written (SPEC §29 item 5: a run has one line, even when the guard and
//     its witness both had it to write);
//   - then to the log (writeTo) and, for a line that must outlive ordinary
//     runs, to the kept file too (kept.go).
func writeLocked(path string, e Entry, wait time.Duration) error {
	dir := filepath.Dir(path)
	if err := MakeDir(dir); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	unlock, err := lockFile(path+".lock", wait)
	if err != nil {
		if errors.Is(err, ErrBusy) {
			return err
		}
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	defer unlock()
	if e.checkID && e.ID != "" && hasID(path, e.ID) {
		return nil
	}
	if err := writeTo(path, e.Line, rotateSize); err != nil {
		return err
	}
	if e.Kept {
		return writeTo(KeptPath(path), e.Line, keptRotateSize)
	}
	return nil
}

// writeTo appends line to the file at path (its lock held):
//
//   - a trailing fragment, left by a writer killed mid-write or by a cut
//     append that could not be taken back, is truncated away first, so a
//     line is whole or absent (SPEC §29 item 5);
//   - rotated first when the line would take the file past rotateAt;
//   - in a single write; when the write is cut short (disk full), the file
//     is truncated back to its size before the write, and where that fails
//     the next writer's first step takes the fragment away.
func writeTo(path string, line []byte, rotateAt int64) error {
	f, err := openLog(path)
	if err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	size := fi.Size()
	if size > 0 && !endsInNewline(f, size) {
		whole := lastLineEnd(f, size)
		if terr := truncate(f, whole); terr == nil {
			size = whole
		} else {
			// Kept apart from the fragment, which log skips.
			line = append([]byte{'\n'}, line...)
		}
	}
	if size > 0 && size+int64(len(line)) > rotateAt {
		f.Close()
		if err := os.Rename(path, RotatedPath(path)); err != nil {
			return fmt.Errorf("audit log %s: cannot rotate: %w", path, err)
		}
		if f, err = openLog(path); err != nil {
			return fmt.Errorf("audit log: %w", err)
		}
		size = 0
	}
	n, err := writeFile(f, line)
	if err == nil && n < len(line) {
		err = errors.New("short write")
	}
	if err != nil {
		if n > 0 {
			if terr := truncate(f, size); terr != nil {
				err = fmt.Errorf("%w (and the cut line could not be taken back: %v)", err, terr)
			}
		}
		f.Close()
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	return f.Close()
}

// lastLineEnd is the size of the file's whole lines: the offset just past
// its last newline (0 when it has none).
func lastLineEnd(f *os.File, size int64) int64 {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-start], start)
		if err != nil && n < int(end-start) {
			return size // cannot tell: cut nothing
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1
		}
		end = start
	}
	return 0
}

// openLog opens the log for appending (and reading its last byte).
func openLog(path string) (*os.File, error) {
	return openFile(path, os.O_RDWR|os.O_APPEND)
}

// openFile opens path, creating it 0600 when missing. A file root creates
// is given the owner and group of its folder (SPEC §13 rule 8): root
// firing a user's hooks must not leave a log or lock the user cannot open.
func openFile(path string, flag int) (*os.File, error) {
	flag |= syscall.O_NOFOLLOW | syscall.O_CLOEXEC
	f, err := os.OpenFile(path, flag, 0)
	if !errors.Is(err, os.ErrNotExist) {
		return f, err
	}
	f, err = os.OpenFile(path, flag|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) { // another writer created it first
		return os.OpenFile(path, flag, 0)
	}
	if err == nil {
		fileowner.LikeParent(path)
	}
	return f, err
}

// MakeDir creates a folder of the logs 0700 when missing, owned like its
// parent (SPEC §13.2 rule 8); the payload store (internal/record) uses it too.
func MakeDir(dir string) error {
	err := os.Mkdir(dir, 0o700)
	if err == nil {
		fileowner.LikeParent(dir)
		return nil
	}
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	return os.MkdirAll(dir, 0o700)
}

// endsInNewline reports whether the log's last byte is a newline; a read
// that fails counts as yes (nothing is added on a guess).
func endsInNewline(f *os.File, size int64) bool {
	var b [1]byte
	if _, err := f.ReadAt(b[:], size-1); err != nil {
		return true
	}
	return b[0] == '\n'
}

// ErrBusy: another process holds the audit log's lock and the writer
// would not wait (TryAppend).
var ErrBusy = errors.New("the audit log is locked by another process")

// lockFile takes an exclusive flock on path (created 0600). The wait is a
// blocking flock (fair: the kernel queues waiters) on a goroutine, bounded
// by wait (0: ErrBusy at once); a wait given up leaves the goroutine to
// close the file, which drops the lock should it come later.
func lockFile(path string, wait time.Duration) (unlock func(), err error) {
	f, err := openFile(path, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		return func() { f.Close() }, nil
	}
	if wait <= 0 {
		f.Close()
		return nil, ErrBusy
	}
	done := make(chan error, 1)
	go func() {
		var err error
		for {
			if err = syscall.Flock(fd, syscall.LOCK_EX); !errors.Is(err, syscall.EINTR) {
				break
			}
		}
		done <- err
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return nil, err
		}
		return func() { f.Close() }, nil
	case <-t.C:
		go func() { <-done; f.Close() }()
		return nil, fmt.Errorf("another writer held the lock %s for %s: %w", path, wait, errLockTimeout)
	}
}

var errLockTimeout = errors.New("lock wait timed out")
