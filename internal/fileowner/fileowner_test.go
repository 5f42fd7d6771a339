package fileowner

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func ownerOf(t *testing.T, path string) (int, int) {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	return int(st.Uid), int(st.Gid)
}

func TestKeepAndLikeParent(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root's writes change owners")
	}
	dir := t.TempDir()
	if err := os.Chown(dir, 4242, 4343); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "allowlist.json")

	// A new file: the folder's owner.
	tmp, err := os.CreateTemp(dir, "tmp")
	if err != nil {
		t.Fatal(err)
	}
	if err := Keep(tmp, target); err != nil {
		t.Fatal(err)
	}
	tmp.Close()
	if u, g := ownerOf(t, tmp.Name()); u != 4242 || g != 4343 {
		t.Errorf("a new file got %d:%d, want the folder's 4242:4343", u, g)
	}
	// A replaced file: its own owner.
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(target, 4444, 4545); err != nil {
		t.Fatal(err)
	}
	tmp2, _ := os.CreateTemp(dir, "tmp")
	if err := Keep(tmp2, target); err != nil {
		t.Fatal(err)
	}
	tmp2.Close()
	if u, g := ownerOf(t, tmp2.Name()); u != 4444 || g != 4545 {
		t.Errorf("a replacement got %d:%d, want the file's 4444:4545", u, g)
	}
	// LikeParent: what root created gets the folder's owner.
	sub := filepath.Join(dir, "snapshots")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	LikeParent(sub)
	if u, _ := ownerOf(t, sub); u != 4242 {
		t.Errorf("LikeParent gave uid %d", u)
	}
	// In a folder root owns, nothing changes.
	rootDir := t.TempDir()
	f := filepath.Join(rootDir, "x")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	LikeParent(f)
	if u, _ := ownerOf(t, f); u != 0 {
		t.Errorf("uid %d in root's folder", u)
	}
}
