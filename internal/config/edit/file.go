package edit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/filelock"
	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/fsync"
)

// NewFileMode is the mode of a config file this package creates: it may
// hold keys, so only its owner reads it.
const NewFileMode = 0o600

// maxRedo bounds how often an edit is redone because the file kept
// changing under it.
const maxRedo = 8

// Target is where edits of path land: the file a symlink points to (so the
// link is kept), or path itself.
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	t, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s is a symbolic link to a file that does not exist; fix or remove the link", path)
	}
	return t, err
}

// LockPath is the lock every edit of the file target holds from its read to
// its rename: a sibling file, since the file itself is replaced by rename.
func LockPath(target string) string { return target + ".lock" }

// ReadFile reads the file at path (following links). A missing file reads
// as empty, exists false. Anything but a regular file is an error.
func ReadFile(path string) (data []byte, exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file", path)
	}
	data, err = os.ReadFile(path)
	return data, err == nil, err
}

// Exists reports whether ReadFile(path) would find a file: a regular file
// (following links) that can be opened for reading. It reads nothing: an
// edit asks it of a file it just read, which may be 55 MB.
func Exists(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// Options says how UpdateFile waits and when it stops.
type Options struct {
	// Lock is how to wait for the lock (LockPath). Its Context also ends
	// the edit with nothing written when it is done (Ctrl-C, SIGTERM),
	// however long the change takes.
	Lock filelock.Wait
	// Held: the caller holds the lock already (Lock), across this edit and
	// other writes that must not interleave with another process's view of
	// the config (protect's approvals, SPEC §29); UpdateFile does not take
	// it again.
	Held bool
}

// Lock takes the lock every edit of the config at path holds (LockPath of
// its Target), for a caller that must hold it across more than one edit
// (Options.Held), with UpdateFile's errors.
func Lock(path string, w filelock.Wait) (unlock func(), err error) {
	target, err := Target(path)
	if err != nil {
		return nil, err
	}
	unlock, err = filelock.Lock(LockPath(target), w)
	if err != nil {
		var te *filelock.TimeoutError
		var oe *filelock.ErrOpen
		switch {
		case errors.As(err, &te):
			return nil, fmt.Errorf("gave up waiting for the config lock %s after %s (another hermes is editing %s); nothing was written, try again or wait longer with --lock-timeout",
				te.Path, te.Waited.Round(1e6), target)
		case errors.As(err, &oe):
			return nil, fmt.Errorf("cannot create the config lock %s: %v; %s is unchanged", oe.Path, oe.Err, target)
		}
		return nil, err
	}
	return unlock, nil
}

// ErrKeptChanging is an edit given up because the file kept changing (or
// shrinking) under it.
var ErrKeptChanging = errors.New("kept changing while it was being edited")

// UpdateFile reads path, computes the new content with change, and
// replaces the file atomically (a temporary file in the same folder,
// synced, renamed over it; the mode kept; a symlink kept, its target
// replaced). It returns the content before and after; equal bytes mean
// nothing was written.
//
// From the read to the rename it holds an exclusive flock on LockPath, so
// edits by hermes never interleave. Writers that do not lock (an editor, the
// agent's dashboard) are caught by reading: the file is read until it is
// stable (readStable), read again right before the rename, and when it
// changed the edit is redone on the new content (bounded, then
// ErrKeptChanging). An edit never starts from a file with fewer settings
// than a read of this edit saw (a file being rewritten in place, read
// half-written), so it cannot write back a truncated config. Temp files
// that killed edits left beside the file are removed.
func UpdateFile(path string, opt Options, change func(old []byte) ([]byte, error)) (before, after []byte, err error) {
	ctx := opt.Lock.Context
	if ctx == nil {
		ctx = context.Background()
	}
	target, err := Target(path)
	if err != nil {
		return nil, nil, err
	}
	unlock := func() {}
	if !opt.Held {
		if unlock, err = Lock(path, opt.Lock); err != nil {
			return nil, nil, err
		}
	}
	// The work runs on its own goroutine so that an interrupt ends the
	// edit at once, even in the middle of parsing a large file; the gate
	// decides, once, whether the rename still happens.
	var gate atomic.Int32 // 0 open, 1 committing, 2 abandoned
	type result struct {
		before, after []byte
		err           error
	}
	done := make(chan result, 1)
	go func() {
		defer unlock()
		b, a, err := updateLocked(ctx, target, change, func() bool { return gate.CompareAndSwap(0, 1) })
		done <- result{b, a, err}
	}()
	select {
	case r := <-done:
		return r.before, r.after, r.err
	case <-ctx.Done():
		if gate.CompareAndSwap(0, 2) {
			return nil, nil, ctx.Err()
		}
		r := <-done // the rename had begun: report what happened
		return r.before, r.after, r.err
	}
}

func updateLocked(ctx context.Context, target string, change func([]byte) ([]byte, error), commit func() bool) (before, after []byte, err error) {
	defer config.OfferDecoding(nil) // a decoding no Parse took is not kept past the edit
	sweepTemps(target)
	most := -1 // the most settings any read of this edit saw
	shrank := false
	for range maxRedo {
		cur, err := readStable(ctx, target, nil)
		if err != nil {
			return nil, nil, err
		}
		if cur.settings < most {
			shrank = true
			continue
		}
		most = max(most, cur.settings)
		mode := fs.FileMode(NewFileMode)
		if cur.exists {
			mode = cur.mode
			if fi, err := os.Stat(target); err == nil {
				if err := refuseHardLinks(target, fi); err != nil {
					return cur.data, nil, err
				}
			}
		}
		updated, err := change(cur.data)
		if err != nil {
			return cur.data, nil, err
		}
		if bytes.Equal(cur.data, updated) && (cur.exists || len(updated) == 0) {
			return cur.data, updated, nil
		}
		if err := ctx.Err(); err != nil {
			return cur.data, nil, err
		}
		tmp, err := writeTemp(target, updated, mode)
		if err != nil {
			return cur.data, nil, err
		}
		// Did a writer that does not lock change the file meanwhile? Then
		// start again from what it wrote rather than overwrite it.
		now, err := readStable(ctx, target, &cur)
		if err != nil || !now.same(cur) {
			os.Remove(tmp)
			if err != nil {
				return cur.data, nil, err
			}
			most = max(most, now.settings)
			continue
		}
		if !commit() {
			os.Remove(tmp)
			return cur.data, nil, ctx.Err()
		}
		if err := os.Rename(tmp, target); err != nil {
			os.Remove(tmp)
			return cur.data, nil, fmt.Errorf("replacing %s: %w", target, err)
		}
		if err := syncDir(filepath.Dir(target)); err != nil {
			// Replaced, but the rename may not survive a crash: said as
			// for the allowlist, never silent (SPEC §29 item 9).
			return cur.data, updated, &allowlist.DirSyncError{Path: target, Dir: filepath.Dir(target), Err: err}
		}
		return cur.data, updated, nil
	}
	if shrank {
		return nil, nil, fmt.Errorf("%s %w: it lost settings between two reads (another program is rewriting it in place?); nothing was written, try again", target, ErrKeptChanging)
	}
	return nil, nil, fmt.Errorf("%s %w by another program; nothing was written, try again", target, ErrKeptChanging)
}

// sweepTemps removes the temp files of edits that were killed before their
// rename. Called with the lock held, so no edit by hermes is writing one.
func sweepTemps(target string) {
	RemoveTemps(filepath.Dir(target), "."+globEscape(filepath.Base(target))+".tmp-*")
}

// RemoveTemps removes the regular files of dir matching the glob pattern:
// temp files that killed writes left. The caller holds the lock that every
// writer of such temps holds, so none is in use.
func RemoveTemps(dir, pattern string) {
	names, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, name := range names {
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() {
			os.Remove(name)
		}
	}
}

func globEscape(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}

func writeTemp(target string, data []byte, mode fs.FileMode) (string, error) {
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("cannot write in %s: %w; %s is unchanged", dir, err, target)
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = fileowner.Keep(f, target)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("writing %s: %w; %s is unchanged", name, err, target)
	}
	return name, nil
}

// Fault, when not nil, is asked before the folder of an edited file is
// synced (op "syncdir", the folder's path); an error it returns stands for
// the fsync's. It is the seam through which tests inject an I/O error, as
// allowlist.Fault is for the allowlist; nothing else sets it.
var Fault func(op, path string) error

func syncDir(dir string) error {
	if Fault != nil {
		if err := Fault("syncdir", dir); err != nil {
			return err
		}
	}
	return fsync.Dir(dir)
}
