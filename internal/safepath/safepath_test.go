package safepath

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fixture is a Checker for the current user with a made-up account
// database: the user "me" (our uid, primary group 5000), "mallory" (uid
// 4242, also in group 6000), and the groups me (5000, user-private) and
// shared (6000, me and mallory).
func fixture(t *testing.T) *Checker {
	t.Helper()
	uid := os.Getuid()
	return &Checker{
		UID: uid,
		Users: func() ([]User, error) {
			return []User{{Name: "me", UID: uid, GID: 5000}, {Name: "mallory", UID: 4242, GID: 4242}}, nil
		},
		Groups: func() ([]Group, error) {
			return []Group{{Name: "me", GID: 5000}, {Name: "shared", GID: 6000, Members: []string{"me", "mallory"}}}, nil
		},
	}
}

func mkdir(t *testing.T, path string, mode os.FileMode) string {
	t.Helper()
	if err := os.Mkdir(path, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
	return path
}

func file(t *testing.T, path string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func chown(t *testing.T, path string, uid, gid int) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("changing owners needs root")
	}
	if err := os.Lchown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
}

// base is a safe folder of ours to build cases in: t.TempDir's parents may
// be anything on a developer machine, so the chain above it is checked
// once and the cases below are judged against it.
func base(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := New(os.Getuid()).Check(dir); err != nil {
		t.Skipf("the temporary folder is not safe itself on this machine: %v", err)
	}
	return dir
}

func wantProblem(t *testing.T, err error, path, reason string) {
	t.Helper()
	p, ok := err.(*Problem)
	if !ok {
		t.Fatalf("Check = %v; want a Problem with %s %q", err, path, reason)
	}
	if p.Path != path || !strings.Contains(p.Reason, reason) {
		t.Fatalf("Check = %q; want path %s and a reason saying %q", p.Error(), path, reason)
	}
}

func TestSafeFile(t *testing.T) {
	dir := base(t)
	f := file(t, filepath.Join(mkdir(t, filepath.Join(dir, "hooks"), 0o755), "a.sh"), 0o755)
	if err := fixture(t).Check(f); err != nil {
		t.Fatalf("a 0755 script in a 0755 folder of ours: %v", err)
	}
}

func TestWritableByOthers(t *testing.T) {
	dir := base(t)
	f := file(t, filepath.Join(dir, "a.sh"), 0o757)
	wantProblem(t, fixture(t).Check(f), f, "is writable by others (mode -rwxr-xrwx")
}

func TestFolderWritableByOthers(t *testing.T) {
	dir := base(t)
	hooks := mkdir(t, filepath.Join(dir, "hooks"), 0o777)
	f := file(t, filepath.Join(hooks, "a.sh"), 0o755)
	wantProblem(t, fixture(t).Check(f), hooks, "a folder writable by others without the sticky bit (mode drwxrwxrwx")
}

// /tmp-like folders: safe for files the user (or root) owns.
func TestStickyFolder(t *testing.T) {
	dir := base(t)
	tmp := mkdir(t, filepath.Join(dir, "tmp"), 0o777|os.ModeSticky)
	if err := os.Chmod(tmp, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	f := file(t, filepath.Join(tmp, "a.sh"), 0o755)
	if err := fixture(t).Check(f); err != nil {
		t.Fatalf("our file in a sticky folder: %v", err)
	}
	other := file(t, filepath.Join(tmp, "b.sh"), 0o755)
	chown(t, other, 4242, 4242)
	wantProblem(t, fixture(t).Check(other), other, "is owned by mallory (uid 4242), not by you or root")
}

func TestOwnedByAnotherUser(t *testing.T) {
	dir := base(t)
	hooks := mkdir(t, filepath.Join(dir, "hooks"), 0o755)
	f := file(t, filepath.Join(hooks, "a.sh"), 0o755)
	chown(t, hooks, 4242, 4242)
	wantProblem(t, fixture(t).Check(f), hooks, "is owned by mallory (uid 4242)")
}

func TestGroupWritable(t *testing.T) {
	dir := base(t)
	private := file(t, filepath.Join(dir, "private.sh"), 0o775)
	chown(t, private, os.Getuid(), 5000)
	if err := fixture(t).Check(private); err != nil {
		t.Fatalf("group-writable by a user-private group: %v", err)
	}
	shared := file(t, filepath.Join(dir, "shared.sh"), 0o775)
	chown(t, shared, os.Getuid(), 6000)
	wantProblem(t, fixture(t).Check(shared), shared, "is writable by group shared (gid 6000), which has members other than its owner me")
	// mallory's primary group: mallory is a member though not listed.
	primary := file(t, filepath.Join(dir, "primary.sh"), 0o775)
	chown(t, primary, os.Getuid(), 4242)
	wantProblem(t, fixture(t).Check(primary), primary, "gid 4242")
	// An unknown group cannot be vouched for.
	unknown := file(t, filepath.Join(dir, "unknown.sh"), 0o775)
	chown(t, unknown, os.Getuid(), 7777)
	wantProblem(t, fixture(t).Check(unknown), unknown, "the group is unknown")
}

// A link in a safe folder to a script in an unsafe one, and a link in an
// unsafe folder to a safe script: both fail, each naming the weak folder.
func TestSymlinks(t *testing.T) {
	dir := base(t)
	open := mkdir(t, filepath.Join(dir, "open"), 0o777)
	safe := mkdir(t, filepath.Join(dir, "safe"), 0o755)
	target := file(t, filepath.Join(open, "real.sh"), 0o755)
	link := filepath.Join(safe, "link.sh")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, fixture(t).Check(link), open, "writable by others")

	good := file(t, filepath.Join(safe, "good.sh"), 0o755)
	link2 := filepath.Join(open, "link2.sh")
	if err := os.Symlink(good, link2); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, fixture(t).Check(link2), open, "writable by others")
}

func TestMissing(t *testing.T) {
	dir := base(t)
	missing := filepath.Join(dir, "nope.sh")
	wantProblem(t, fixture(t).Check(missing), missing, "cannot be examined: "+syscall.ENOENT.Error())
}

func TestRealDatabases(t *testing.T) {
	c := New(os.Getuid())
	if _, err := c.accounts(); err != nil {
		t.Skipf("no readable /etc/passwd and /etc/group: %v", err)
	}
	if name := c.userName(0); !strings.HasPrefix(name, "root") {
		t.Errorf("uid 0 is %q; want root", name)
	}
}
