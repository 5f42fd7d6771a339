package allowlist

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSnapshotSaveLoad(t *testing.T) {
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "guard.sh")
	body := "#!/bin/sh\necho é\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	fp := NewFingerprinter().Of(script)
	if err := SaveSnapshot(home, fp); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSnapshot(home, fp.SHA256)
	if err != nil || string(got) != body {
		t.Fatalf("LoadSnapshot = %q, %v", got, err)
	}
	if got, err := LoadSnapshot(home, strings.ToUpper(fp.SHA256)); err != nil || string(got) != body {
		t.Errorf("upper-case sha: %q, %v", got, err)
	}
	dir := filepath.Join(home, SnapshotDirName)
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("folder mode %o", m)
	}
	if m := mode(t, filepath.Join(dir, fp.SHA256)); m != 0o600 {
		t.Errorf("snapshot mode %o", m)
	}
	// Saving again is a no-op and leaves nothing else behind.
	if err := SaveSnapshot(home, fp); err != nil {
		t.Fatal(err)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != fp.SHA256 {
		t.Errorf("snapshot folder holds %v", names)
	}
}

func TestSnapshotAbsentAndSkipped(t *testing.T) {
	home := t.TempDir()
	if _, err := LoadSnapshot(home, strings.Repeat("0", 64)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent snapshot: %v", err)
	}
	// No content (too large or unreadable): nothing saved, no error.
	for _, fp := range []Fingerprint{
		{SHA256: strings.Repeat("1", 64)},
		{Err: ErrNoScript, Content: []byte("x")},
	} {
		if err := SaveSnapshot(home, fp); err != nil {
			t.Errorf("SaveSnapshot(%+v) = %v", fp, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, SnapshotDirName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("folder created for nothing: %v", err)
	}
}

func TestSnapshotNameValidated(t *testing.T) {
	home := t.TempDir()
	for _, sha := range []string{
		"", "../x", "../../etc/passwd", strings.Repeat("0", 63), strings.Repeat("0", 65),
		strings.Repeat("g", 64), "../" + strings.Repeat("0", 61), "/" + strings.Repeat("0", 63),
	} {
		if _, err := LoadSnapshot(home, sha); !errors.Is(err, ErrBadSHA256) {
			t.Errorf("LoadSnapshot(%q) = %v", sha, err)
		}
		if err := SaveSnapshot(home, Fingerprint{SHA256: sha, Content: []byte("x")}); !errors.Is(err, ErrBadSHA256) {
			t.Errorf("SaveSnapshot(%q) = %v", sha, err)
		}
	}
	// A fingerprint whose content does not hash to its name is refused.
	err := SaveSnapshot(home, Fingerprint{SHA256: shaOf([]byte("a")), Content: []byte("b")})
	if err == nil {
		t.Error("mismatched content saved")
	}
	if _, err := os.Stat(filepath.Join(home, SnapshotDirName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("something was written: %v", err)
	}
}

// TestSnapshotSweepsKilledTemps: a snapshot write killed before its rename
// leaves a temporary file; the next process to save a snapshot removes it
// once stale, even when that snapshot is already there, and keeps a fresh
// one (a write in progress).
func TestSnapshotSweepsKilledTemps(t *testing.T) {
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "guard.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	fp := NewFingerprinter().Of(script)
	if err := SaveSnapshot(home, fp); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(home, SnapshotDirName)
	stale, fresh := filepath.Join(dir, "."+fp.SHA256+".tmp-1"), filepath.Join(dir, ".other.tmp-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	// Within one process the folder is swept once (accept --all of 10,000
	// scripts swept it 10,000 times): the stale file stays until the next
	// process.
	if err := SaveSnapshot(home, fp); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("swept again within a minute: %v", err)
	}
	// The next process; the snapshot is saved already.
	swept.Clear()
	if err := SaveSnapshot(home, fp); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temporary file still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temporary file removed: %v", err)
	}
}

// TestSaveSnapshotsTogether: a batch saves each content once, skips what
// is kept already, and a fault at any step leaves no temporary file and no
// snapshot of what was not renamed yet.
func TestSaveSnapshotsTogether(t *testing.T) {
	scripts := t.TempDir()
	var fps []Fingerprint
	for i, body := range []string{"#!/bin/sh\n# a\n", "#!/bin/sh\n# b\n", "#!/bin/sh\n# a\n", "#!/bin/sh\n# c\n"} {
		p := filepath.Join(scripts, fmt.Sprintf("s%d.sh", i))
		if err := os.WriteFile(p, []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
		fps = append(fps, NewFingerprinter().Of(p))
	}
	kept := func(home string) (names []string) {
		entries, _ := os.ReadDir(filepath.Join(home, SnapshotDirName))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}

	home := t.TempDir()
	if err := SaveSnapshot(home, fps[1]); err != nil { // b kept already
		t.Fatal(err)
	}
	if err := SaveSnapshots(context.Background(), home, fps); err != nil {
		t.Fatal(err)
	}
	if got := kept(home); len(got) != 3 {
		t.Fatalf("kept %q, want the three contents", got)
	}
	for _, fp := range fps {
		data, err := LoadSnapshot(home, fp.SHA256)
		if err != nil || string(data) != string(fp.Content) {
			t.Errorf("snapshot of %s: %q, %v", fp.Path, data, err)
		}
		if fi, err := os.Stat(filepath.Join(home, SnapshotDirName, fp.SHA256)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("snapshot of %s: %v, %v", fp.Path, fi, err)
		}
	}

	// Interrupted: nothing is written.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	interrupted := t.TempDir()
	if err := SaveSnapshots(done, interrupted, fps); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v", err)
	}
	if got := kept(interrupted); len(got) != 0 {
		t.Errorf("interrupted, yet kept %q", got)
	}

	for _, op := range []string{"create", "write", "sync", "rename"} {
		home := t.TempDir()
		Fault = func(o, path string) error {
			if o == op && filepath.Base(path) == fps[3].SHA256 { // c, the last
				return errors.New("injected " + op)
			}
			return nil
		}
		err := SaveSnapshots(context.Background(), home, fps)
		Fault = nil
		if err == nil || !strings.Contains(err.Error(), "injected "+op) {
			t.Errorf("%s: error %v", op, err)
		}
		got := kept(home)
		for _, name := range got {
			if strings.Contains(name, ".tmp-") {
				t.Errorf("%s: temporary file %s left", op, name)
			}
		}
		// Up to the renames nothing is in place; a rename that fails
		// leaves those renamed before it.
		want := 0
		if op == "rename" {
			want = 2
		}
		if len(got) != want {
			t.Errorf("%s: kept %q, want %d snapshots", op, got, want)
		}
	}
}
