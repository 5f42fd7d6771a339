package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

const quiet = 50 * time.Millisecond

func newWatcher(t *testing.T, paths ...string) *Watcher {
	t.Helper()
	w, err := New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if err := w.Set(paths); err != nil {
		t.Fatal(err)
	}
	return w
}

// wait bounds a Wait that goes wrong; nothing sleeps waiting for it.
func wait(t *testing.T, w *Watcher) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	got, err := w.Wait(ctx, quiet)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWaitSeesWritesAndRenames(t *testing.T) {
	dir := t.TempDir()
	script, config := filepath.Join(dir, "hook.sh"), filepath.Join(dir, "config.yaml")
	write(t, script, "v1")
	write(t, config, "v1")
	w := newWatcher(t, script, config)

	write(t, script, "v2")
	if got := wait(t, w); got != script {
		t.Errorf("in-place write: got %q, want %q", got, script)
	}
	// An editor's save: a new file renamed over the old one.
	tmp := filepath.Join(dir, ".config.yaml.swp")
	write(t, tmp, "v2")
	if err := os.Rename(tmp, config); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, w); got != config {
		t.Errorf("rename over: got %q, want %q", got, config)
	}
}

// Other files in the same folders are not changes; the change that comes
// after them is reported.
func TestWaitFiltersByName(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "hook.sh")
	write(t, script, "v1")
	w := newWatcher(t, script)
	write(t, filepath.Join(dir, "unrelated.log"), "x")
	write(t, script, "v2")
	if got := wait(t, w); got != script {
		t.Errorf("got %q, want %q", got, script)
	}
}

// A file that does not exist yet (a config about to be created) is seen
// when it appears.
func TestWaitSeesCreation(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.yaml")
	w := newWatcher(t, config)
	write(t, config, "hooks: {}")
	if got := wait(t, w); got != config {
		t.Errorf("got %q, want %q", got, config)
	}
}

func TestWaitCancelled(t *testing.T) {
	w := newWatcher(t, filepath.Join(t.TempDir(), "x"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := w.Wait(ctx, quiet); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// A folder that does not exist yet is watched through its parent: it
// appearing is a change, and once Set again, so are its files.
func TestSetMissingFolder(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "a", "b", "config.yaml")
	w := newWatcher(t, config)
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := wait(t, w); got != filepath.Join(dir, "a") {
		t.Errorf("folder made: got %q, want %q", got, filepath.Join(dir, "a"))
	}
	if err := w.Set([]string{config}); err != nil {
		t.Fatal(err)
	}
	write(t, config, "hooks: {}")
	if got := wait(t, w); got != config {
		t.Errorf("got %q, want %q", got, config)
	}
}

// A watched folder deleted and made again (rm -rf of the scripts folder,
// a checkout, HERMES_HOME restored from a backup) is watched again: each
// step is a change, and an edit after it is seen.
func TestWaitAfterFolderReplaced(t *testing.T) {
	for _, how := range []string{"deleted", "moved away"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			scripts := filepath.Join(dir, "scripts")
			script := filepath.Join(scripts, "hook.sh")
			if err := os.Mkdir(scripts, 0o755); err != nil {
				t.Fatal(err)
			}
			write(t, script, "v1")
			w := newWatcher(t, script)
			var err error
			if how == "deleted" {
				err = os.RemoveAll(scripts)
			} else {
				err = os.Rename(scripts, filepath.Join(dir, "old"))
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := wait(t, w); got != script && got != scripts {
				t.Errorf("folder %s: got %q, want %q or its folder", how, got, script)
			}
			if err := w.Set([]string{script}); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(scripts, 0o755); err != nil {
				t.Fatal(err)
			}
			if got := wait(t, w); got != scripts {
				t.Errorf("folder made again: got %q, want %q", got, scripts)
			}
			if err := w.Set([]string{script}); err != nil {
				t.Fatal(err)
			}
			write(t, script, "v2")
			if got := wait(t, w); got != script {
				t.Errorf("edit after the folder came back: got %q, want %q", got, script)
			}
			// The moved-away folder is not watched in its new place.
			if how == "moved away" {
				write(t, filepath.Join(dir, "old", "hook.sh"), "v3")
				write(t, script, "v3")
				if got := wait(t, w); got != script {
					t.Errorf("after an edit in the old folder: got %q, want %q", got, script)
				}
			}
		})
	}
}
