package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/filelock"
)

func appendHook(cmd string) func([]byte) ([]byte, error) {
	return func(old []byte) ([]byte, error) {
		d, err := Parse(old)
		if err != nil {
			return nil, err
		}
		return d.Append([]string{"hooks", "pre_tool_call"}, []Field{{"command", cmd}})
	}
}

// A file that changes between the read and the write is not overwritten:
// the edit is redone on what is there now, so the other writer's change
// survives.
func TestUpdateFileRedoesOnConcurrentChange(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("model: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, after, err := UpdateFile(path, Options{}, func(old []byte) ([]byte, error) {
		calls++
		if calls == 1 {
			// Someone else edits the file while we work.
			if err := os.WriteFile(path, []byte("model: b  # theirs\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return appendHook("x.sh")(old)
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("change ran %d times, want 2", calls)
	}
	want := "model: b  # theirs\nhooks:\n  pre_tool_call:\n    - command: x.sh\n"
	got, _ := os.ReadFile(path)
	if string(got) != want || string(after) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestUpdateFileKeepsSymlinkAndMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.yaml")
	link := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(real, []byte("a: 1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := UpdateFile(link, Options{}, appendHook("x.sh")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	fi, _ := os.Stat(real)
	if fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", fi.Mode().Perm())
	}
	if got, _ := os.ReadFile(real); !strings.Contains(string(got), "x.sh") {
		t.Fatalf("target not edited: %q", got)
	}
	// No temporary file is left behind.
	if m, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(m) != 0 {
		t.Fatalf("left behind: %v", m)
	}
}

func TestUpdateFileCreatesPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if _, _, err := UpdateFile(path, Options{}, appendHook("x.sh")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != NewFileMode {
		t.Fatalf("mode %v, err %v", fi.Mode().Perm(), err)
	}
}

func TestUpdateFileUnwritableFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	orig := []byte("a: 1  # mine\n")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	_, _, err := UpdateFile(path, Options{}, appendHook("x.sh"))
	if err == nil || !strings.Contains(err.Error(), "cannot write in "+dir) || !strings.Contains(err.Error(), "is unchanged") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(orig) {
		t.Fatalf("file changed: %q", got)
	}
}

// A link into a folder that does not exist: the error names the folder
// (this one fails for root too).
func TestUpdateFileMissingFolder(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "config.yaml")
	if err := os.Symlink(filepath.Join(dir, "missing", "config.yaml"), link); err != nil {
		t.Fatal(err)
	}
	_, _, err := UpdateFile(link, Options{}, appendHook("x.sh"))
	if err == nil || !strings.Contains(err.Error(), "symbolic link to a file that does not exist") {
		t.Fatalf("err = %v", err)
	}
}

func TestUpdateFileRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	_, _, err := UpdateFile(dir, Options{}, appendHook("x.sh"))
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v", err)
	}
}

func TestUpdateFileSweepsKilledTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	os.WriteFile(path, []byte("a: 1\n"), 0o600)
	left := filepath.Join(dir, ".config.yaml.tmp-123")
	os.WriteFile(left, []byte("half"), 0o600)
	other := filepath.Join(dir, ".other.yaml.tmp-1")
	os.WriteFile(other, []byte("x"), 0o600)
	if _, _, err := UpdateFile(path, Options{}, appendHook("x.sh")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err == nil {
		t.Error("the temp file of a killed edit was not removed")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("another file's temp was removed")
	}
}

// TestUpdateFileWaitsForTheLock: another editor holding config.yaml.lock
// keeps this one waiting; at the timeout nothing is written.
func TestUpdateFileWaitsForTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(path, []byte("a: 1\n"), 0o600)
	unlock, err := filelock.Lock(LockPath(path), filelock.Wait{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = UpdateFile(path, Options{Lock: filelock.Wait{Timeout: 20 * time.Millisecond}}, appendHook("x.sh"))
	if err == nil || !strings.Contains(err.Error(), "gave up waiting for the config lock") {
		t.Fatalf("got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "a: 1\n" {
		t.Fatalf("written while locked: %q", got)
	}
	unlock()
	if _, _, err := UpdateFile(path, Options{}, appendHook("x.sh")); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateFileInterrupted: an interrupt while the change is computed ends
// the edit at once, and nothing is written even when the change then
// completes.
func TestUpdateFileInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	os.WriteFile(path, []byte("a: 1\n"), 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	finished := make(chan struct{})
	_, _, err := UpdateFile(path, Options{Lock: filelock.Wait{Context: ctx}}, func(old []byte) ([]byte, error) {
		defer close(finished)
		cancel()
		<-release
		return appendHook("x.sh")(old)
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	close(release)
	<-finished
	// The abandoned edit gives up the lock without writing.
	unlock, err := filelock.Lock(LockPath(path), filelock.Wait{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if got, _ := os.ReadFile(path); string(got) != "a: 1\n" {
		t.Fatalf("written after the interrupt: %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".config.yaml.tmp-*")); len(m) > 0 {
		t.Fatalf("temp left: %q", m)
	}
}

// TestUpdateFileNeverWritesBackFewerSettings: a file that lost settings
// between reads (rewritten in place, read half-written) is not the start of
// an edit: after the bounded redos, nothing is written.
func TestUpdateFileNeverWritesBackFewerSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(path, []byte("a: 1\nb: 2\nc: 3\n"), 0o600)
	calls := 0
	_, _, err := UpdateFile(path, Options{}, func(old []byte) ([]byte, error) {
		calls++
		if calls == 1 {
			// Someone truncates and starts rewriting it in place.
			f, _ := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			f.WriteString("a: 1\n")
			f.Close()
		}
		return appendHook("x.sh")(old)
	})
	if !errors.Is(err, ErrKeptChanging) || !strings.Contains(err.Error(), "lost settings") {
		t.Fatalf("got %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "a: 1\n" {
		t.Fatalf("written: %q", got)
	}
	if calls != 1 {
		t.Errorf("change ran %d times on a file with fewer settings", calls)
	}
}

// Exists says what ReadFile's exists says, without reading.
func TestExistsAsReadFile(t *testing.T) {
	dir := t.TempDir()
	file, link, fifo := filepath.Join(dir, "config.yaml"), filepath.Join(dir, "link.yaml"), filepath.Join(dir, "fifo")
	if err := os.WriteFile(file, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link, dir, fifo, filepath.Join(dir, "missing.yaml"), filepath.Join(link, "under")} {
		_, want, _ := ReadFile(p)
		if got := Exists(p); got != want {
			t.Errorf("%s: Exists %v, ReadFile says %v", p, got, want)
		}
	}
}
