package safepath

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestResolverIsEvalSymlinks: for files in plain folders, symlinked
// folders, behind symlinks (absolute, relative, through ..), dangling or
// looping links and missing paths, the Resolver answers exactly what
// filepath.EvalSymlinks answers, value and error, from many goroutines at
// once, and again once a link it has seen is repointed through a folder
// it has not.
func TestResolverIsEvalSymlinks(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/sub")
	mk("other")
	file("real/a.sh")
	file("real/sub/b.sh")
	file("other/c.sh")
	link("real", "dirlink")
	link(filepath.Join(root, "real/sub"), "abslink")
	link("../other/c.sh", "real/rel.sh")
	link("sub/../a.sh", "real/dots.sh")
	link("nowhere.sh", "real/dangling.sh")
	link("loop2.sh", "real/loop1.sh")
	link("loop1.sh", "real/loop2.sh")
	link("../dirlink/sub", "other/up")
	paths := []string{
		"real/a.sh", "real/sub/b.sh", "dirlink/a.sh", "dirlink/sub/b.sh", "abslink/b.sh",
		"real/rel.sh", "dirlink/rel.sh", "real/dots.sh", "real/dangling.sh", "real/loop1.sh",
		"real/missing.sh", "missing/x.sh", "real/a.sh/x", "other/up/b.sh", "real", "dirlink",
	}
	check := func(r *Resolver) {
		var wg sync.WaitGroup
		for _, p := range paths {
			abs := filepath.Join(root, p)
			wg.Go(func() {
				want, wantErr := filepath.EvalSymlinks(abs)
				got, err := r.EvalSymlinks(abs)
				if got != want || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
					t.Errorf("%s: got %q, %v; want %q, %v", p, got, err, want, wantErr)
				}
			})
		}
		wg.Wait()
	}
	r := &Resolver{}
	check(r)
	check(r)
	check(nil)
	// A file link repointed: the folder is remembered, the file is not.
	if err := os.Remove(filepath.Join(root, "real/rel.sh")); err != nil {
		t.Fatal(err)
	}
	link("sub/b.sh", "real/rel.sh")
	check(r)
}

// TestResolverStat: Stat answers as os.Stat does (mode, size, error) for a
// file, a link to one, a dangling link, a missing path and a path through
// a file; Lstat is asked of the disk once per path (a file removed after
// it was asked is still there to a Resolver, but not to a nil one), while
// a link is followed anew each time.
func TestResolverStat(t *testing.T) {
	dir := t.TempDir()
	file, long := filepath.Join(dir, "a.sh"), filepath.Join(dir, "b.sh")
	if err := os.WriteFile(file, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(long, []byte("#!/bin/sh\necho longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link, dangling := filepath.Join(dir, "link.sh"), filepath.Join(dir, "dangling.sh")
	if err := os.Symlink("a.sh", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.sh", dangling); err != nil {
		t.Fatal(err)
	}
	var r Resolver
	for _, p := range []string{file, long, link, dangling, filepath.Join(dir, "missing.sh"), filepath.Join(file, "x")} {
		want, wantErr := os.Stat(p)
		got, err := r.Stat(p)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("Stat(%s): error %v, want %v", p, err, wantErr)
		}
		if err == nil && (got.Mode() != want.Mode() || got.Size() != want.Size()) {
			t.Fatalf("Stat(%s): %v %d, want %v %d", p, got.Mode(), got.Size(), want.Mode(), want.Size())
		}
	}
	// Repointed: the link is followed now, the file's lstat is remembered.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b.sh", link); err != nil {
		t.Fatal(err)
	}
	if fi, err := r.Stat(link); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("Stat of a repointed link: %v, %v; want b.sh's mode 0644", fi, err)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lstat(file); err != nil {
		t.Fatalf("Lstat asked the disk again: %v", err)
	}
	if _, err := (*Resolver)(nil).Lstat(file); !os.IsNotExist(err) {
		t.Fatalf("a nil Resolver remembered: %v", err)
	}
}
