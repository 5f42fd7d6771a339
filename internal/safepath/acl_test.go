package safepath

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"golang.org/x/sys/unix"
)

// setACL writes an access ACL the way setfacl does: the binary xattr. The
// mode's group bits become the mask, as the kernel keeps them in step.
func setACL(t *testing.T, path string, entries []ACLEntry) {
	t.Helper()
	err := unix.Setxattr(path, aclXattr, EncodeACL(entries), 0)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EPERM) {
		t.Skipf("the file system of %s keeps no POSIX ACLs", path)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// acl is owner rwx, group r-x, other r-x plus extra entries and a mask.
func acl(mask uint16, extra ...ACLEntry) []ACLEntry {
	out := []ACLEntry{{Tag: aclUserObj, Perm: 7}}
	out = append(out, extra...)
	out = append(out, ACLEntry{Tag: aclGroupObj, Perm: 5}, ACLEntry{Tag: aclMask, Perm: mask}, ACLEntry{Tag: aclOther, Perm: 5})
	// The kernel takes entries ordered by tag, then id.
	sort.Slice(out, func(i, j int) bool {
		return out[i].Tag < out[j].Tag || out[i].Tag == out[j].Tag && out[i].ID < out[j].ID
	})
	return out
}

func TestParseACLRoundTrip(t *testing.T) {
	in := acl(7, ACLEntry{Tag: aclUser, Perm: 6, ID: 4242})
	got, err := ParseACL(EncodeACL(in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("ParseACL = %v, %v", got, err)
	}
	for _, bad := range [][]byte{nil, {2, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0, 1}} {
		if _, err := ParseACL(bad); err == nil {
			t.Errorf("ParseACL(%v) accepted", bad)
		}
	}
}

// SPEC §13.2 rule 2: setfacl -m u:mallory:rw on a 0755 script is writable
// by others, though the mode says only the owner can write.
func TestACLNamedUserCanWrite(t *testing.T) {
	dir := base(t)
	f := file(t, filepath.Join(dir, "a.sh"), 0o755)
	setACL(t, f, acl(7, ACLEntry{Tag: aclUser, Perm: 6, ID: 4242}))
	wantProblem(t, fixture(t).Check(f), f, "writable by user mallory (uid 4242) through its POSIX ACL")
}

func TestACLOnFolder(t *testing.T) {
	dir := base(t)
	hooks := mkdir(t, filepath.Join(dir, "hooks"), 0o755)
	f := file(t, filepath.Join(hooks, "a.sh"), 0o755)
	setACL(t, hooks, acl(7, ACLEntry{Tag: aclGroup, Perm: 7, ID: 6000}))
	wantProblem(t, fixture(t).Check(f), hooks, "writable by group shared (gid 6000)")
}

// A mask without write takes it from every named entry: safe.
func TestACLMaskedOut(t *testing.T) {
	dir := base(t)
	f := file(t, filepath.Join(dir, "a.sh"), 0o755)
	setACL(t, f, acl(5, ACLEntry{Tag: aclUser, Perm: 6, ID: 4242}))
	if err := fixture(t).Check(f); err != nil {
		t.Fatalf("masked ACL: %v", err)
	}
}

// Entries for the owner, root or a user-private group grant nobody else.
func TestACLHarmlessEntries(t *testing.T) {
	dir := base(t)
	f := file(t, filepath.Join(dir, "a.sh"), 0o755)
	extra := []ACLEntry{{Tag: aclUser, Perm: 7, ID: 0}, {Tag: aclGroup, Perm: 7, ID: 5000}}
	if os.Getuid() != 0 {
		extra = append(extra, ACLEntry{Tag: aclUser, Perm: 7, ID: uint32(os.Getuid())})
	}
	setACL(t, f, acl(7, extra...))
	if err := fixture(t).Check(f); err != nil {
		t.Fatalf("harmless ACL: %v", err)
	}
}
