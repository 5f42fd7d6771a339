// Package watch waits for a set of files to change (test --watch). It
// watches the folders that hold them, not the files: editors save by
// writing a new file and renaming it over the old one, which a watch on
// the old file's inode would never see.
package watch

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports changes to the files it is given.
type Watcher struct {
	fs    *fsnotify.Watcher
	dirs  map[string]bool
	files map[string]bool
}

// New starts a watcher with no files.
func New() (*Watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("cannot watch files: %w", err)
	}
	return &Watcher{fs: fw, dirs: map[string]bool{}, files: map[string]bool{}}, nil
}

// Close stops watching.
func (w *Watcher) Close() error { return w.fs.Close() }

// Set makes paths the files watched (relative paths are taken from the
// current directory). A symlink's target is watched too. Folders that
// cannot be watched (they do not exist yet) are skipped: the error lists
// them, and the other files are still watched.
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
	dirs := map[string]bool{}
	for f := range files {
		dirs[filepath.Dir(f)] = true
	}
	for d := range w.dirs {
		if !dirs[d] {
			_ = w.fs.Remove(d)
			delete(w.dirs, d)
		}
	}
	var failed []string
	for d := range dirs {
		if w.dirs[d] {
			continue
		}
		if err := w.fs.Add(d); err != nil {
			failed = append(failed, d)
			continue
		}
		w.dirs[d] = true
	}
	w.files = files
	if len(failed) > 0 {
		return fmt.Errorf("cannot watch %q", failed)
	}
	return nil
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
			if !w.files[filepath.Clean(ev.Name)] {
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
