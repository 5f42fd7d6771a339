package allowlist

import (
	"errors"
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
// leaves a temporary file; the next snapshot saved removes it once stale,
// even when that snapshot is already there, and keeps a fresh one (a write
// in progress).
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
	if err := SaveSnapshot(home, fp); err != nil { // already saved
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temporary file still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temporary file removed: %v", err)
	}
}
