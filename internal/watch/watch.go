// Package watch waits for a set of files to change (test --watch). It
// watches the folders that hold them, not the files: editors save by
// writing a new file and renaming it over the old one, which a watch on
// the old file's inode would never see. A folder that is missing (deleted,
// not made yet) is waited for through its nearest existing parent, so a
// folder deleted and made again is watched again (SPEC §22).
package watch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports changes to the files it is given.
type Watcher struct {
	fs    *fsnotify.Watcher
	dirs  map[string]bool // folders watched
	files map[string]bool
	// missing are folders of watched files that do not exist: a parent of
	// theirs is watched for them to appear.
	missing map[string]bool
}

// New starts a watcher with no files.
func New() (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("cannot watch files: %w", err)
	}
	return &Watcher{fs: fw, dirs: map[string]bool{}, files: map[string]bool{}, missing: map[string]bool{}}, nil
}

// Close stops watching.
func (w *Watcher) Close() error { return w.fs.Close() }

// Set makes paths the files watched (relative paths are taken from the
// current directory). A symlink's target is watched too. A folder that
// does not exist is watched for through its nearest existing parent. The
// error lists folders that cannot be watched at all; the other files are
// still watched. Call Set again after each change: a folder that was
// replaced is watched anew.
func (w *Watcher) Set(paths []string) error {
	files := map[string]bool{}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		files[abs] = true
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			files[real] = true
		}
	}
	dirs, missing := map[string]bool{}, map[string]bool{}
	for f := range files {
		d := filepath.Dir(f)
		at := existingAncestor(d)
		if at != d {
			missing[d] = true
		}
		dirs[at] = true
	}
	for d := range w.dirs {
		if !dirs[d] {
			_ = w.fs.Remove(d)
			delete(w.dirs, d)
		}
	}
	var failed []string
	for d := range dirs {
		// Added again even when it was watched: a folder deleted and made
		// again is another inode (adding a watched folder is a no-op).
		if err := w.fs.Add(d); err != nil {
			failed = append(failed, d)
			delete(w.dirs, d)
			continue
		}
		w.dirs[d] = true
	}
	w.files, w.missing = files, missing
	if len(failed) > 0 {
		return fmt.Errorf("cannot watch %q", failed)
	}
	return nil
}

// existingAncestor is dir, or its nearest parent that is a folder.
func existingAncestor(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// relevant reports whether ev changes what is watched: a watched file, a
// watched folder deleted or moved away (its files are gone with it), or a
// missing folder (or one of its parents) appearing.
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	switch {
	case w.files[name]:
		return true
	case w.dirs[name] && ev.Has(fsnotify.Remove|fsnotify.Rename):
		delete(w.dirs, name) // fsnotify dropped its watch; Set adds it again
		return true
	case ev.Has(fsnotify.Create | fsnotify.Rename):
		for m := range w.missing {
			if m == name || strings.HasPrefix(m, name+string(filepath.Separator)) {
				return true
			}
		}
	}
	return false
}

// Wait blocks until a watched file is created, written, removed, renamed
// or has its mode changed, then until no further change came for quiet
// (an editor's save is often several events), and returns the first file
// that changed. It returns ctx's error when ctx ends first. Changes made
// since the last Wait (while the caller was busy) count.
func (w *Watcher) Wait(ctx context.Context, quiet time.Duration) (string, error) {
	first := ""
	var settle <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case ev, ok := <-w.fs.Events:
			if !ok {
				return "", fmt.Errorf("the file watcher stopped")
			}
			if !w.relevant(ev) {
				continue
			}
			if first == "" {
				first = filepath.Clean(ev.Name)
			}
			settle = time.After(quiet)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return "", fmt.Errorf("the file watcher stopped")
			}
			// An overflow loses events: rerunning is the safe answer.
			if first == "" {
				first = fmt.Sprintf("(watcher: %v)", err)
			}
			settle = time.After(quiet)
		case <-settle:
			return first, nil
		}
	}
}
