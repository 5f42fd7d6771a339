package safepath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootOnlyThroughALink: a genuine system file reached through a link
// in a folder others can write is not trusted (whoever writes the folder
// can point the link elsewhere); the same file by its own path is.
func TestRootOnlyThroughALink(t *testing.T) {
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil || RootOnly(sh) != nil {
		t.Skipf("/bin/sh is not a root-only file here: %v", RootOnly(sh))
	}
	dir := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777) // past the umask: anyone may write it
	link := filepath.Join(dir, "sh")
	if err := os.Symlink(sh, link); err != nil {
		t.Fatal(err)
	}
	err = RootOnly(link)
	var p *Problem
	if !errors.As(err, &p) || !strings.HasPrefix(p.Path, filepath.Dir(dir)) {
		t.Fatalf("a link in a world-writable folder to %s: %v, want a problem with the link's folders", sh, err)
	}
	if err := (RootOnlyCache{}).CheckResolved(sh, sh); err != nil {
		t.Fatalf("%s itself: %v", sh, err)
	}
}
