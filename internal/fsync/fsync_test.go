package fsync

import (
	"path/filepath"
	"testing"
)

// TestDir: a folder syncs; a folder that is not there is an error.
func TestDir(t *testing.T) {
	dir := t.TempDir()
	if err := Dir(dir); err != nil {
		t.Fatal(err)
	}
	if err := Dir(filepath.Join(dir, "gone")); err == nil {
		t.Fatal("a missing folder synced")
	}
}

func TestFS(t *testing.T) {
	dir := t.TempDir()
	if err := FS(dir); err != nil {
		t.Fatal(err)
	}
	if err := FS(filepath.Join(dir, "gone")); err == nil {
		t.Fatal("the file system of a missing folder synced")
	}
}
