package code

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes/internal/safepath"
)

func system(c Code, path string) (bool, bool) {
	for _, f := range c.Files {
		if f.Path == path {
			return f.System, true
		}
	}
	return false, false
}

// Point 4: system files are trusted by ownership, and only where nobody
// but root can change them and outside the user's folders.
func TestSystemFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the root-owned fixtures need root")
	}
	env := Env{PATH: "/usr/bin:/bin", Home: t.TempDir()}
	c := Find("/usr/bin/env true", env)
	if sys, ok := system(c, "/usr/bin/env"); !ok || !sys {
		t.Fatalf("/usr/bin/env is not a system file: %+v", c)
	}
	if !c.AllSystem() {
		t.Errorf("all-system code not reported as such: %+v", c)
	}

	// Root-owned, but in a folder others can write (/tmp is sticky and
	// world-writable): pinned, not trusted.
	dir := t.TempDir()
	tmpProg := filepath.Join(dir, "prog")
	if err := os.WriteFile(tmpProg, []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	if sys, _ := system(Find(tmpProg, env), tmpProg); sys {
		t.Errorf("%s under /tmp counted as a system file", tmpProg)
	}

	// The user's home, HERMES_HOME and a project are never system folders,
	// whoever owns them.
	for _, priv := range []Env{{PATH: "/usr/bin", Home: "/usr"}, {PATH: "/usr/bin", HermesHome: "/usr/bin"}, {PATH: "/usr/bin", ProjectDir: "/usr"}} {
		if sys, _ := system(Find("/usr/bin/env", priv), "/usr/bin/env"); sys {
			t.Errorf("/usr/bin/env counted as system inside a private folder (%+v)", priv)
		}
	}
}

// A system file someone other than root can write is pinned: group write,
// and an ACL granting write to a user.
func TestSystemFileWritableByOthers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to write under /opt")
	}
	dir, err := os.MkdirTemp("/opt", "hermes-code-test-")
	if err != nil {
		t.Skip("cannot write /opt:", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "prog")
	if err := os.WriteFile(prog, []byte("\x7fELF"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := Env{PATH: dir}
	if sys, _ := system(Find("prog", env), prog); !sys {
		t.Fatalf("%s (root, 0755, in /opt) is not a system file", prog)
	}
	if err := os.Chmod(prog, 0o775); err != nil {
		t.Fatal(err)
	}
	if sys, _ := system(Find("prog", env), prog); sys {
		t.Errorf("a group-writable file counted as a system file")
	}
	if err := os.Chmod(prog, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	if sys, _ := system(Find("prog", env), prog); sys {
		t.Errorf("a file in a group-writable folder counted as a system file")
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// user_obj rwx, user nobody rw-, group_obj r-x, mask rwx, other r-x:
	// the mode still reads 0755.
	acl := safepath.EncodeACL([]safepath.ACLEntry{{Tag: 0x01, Perm: 7}, {Tag: 0x02, Perm: 6, ID: 65534}, {Tag: 0x04, Perm: 5}, {Tag: 0x10, Perm: 7}, {Tag: 0x20, Perm: 5}})
	if err := unix.Setxattr(prog, "system.posix_acl_access", acl, 0); err != nil {
		t.Skip("no POSIX ACLs here:", err)
	}
	if sys, _ := system(Find("prog", env), prog); sys {
		t.Errorf("a file whose ACL lets nobody write counted as a system file")
	}
}
