package safepath

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// RootOnly returns nil when only root can change the file at path: the file
// (symlinks followed) is owned by root and writable by neither its group
// nor others, ACLs included, and every folder above it up to /, both along
// the path as written and along the path it resolves to, is owned by root
// and writable by no one else (a sticky folder like /tmp is writable by
// others and does not pass). This is stricter than Check: it is how a
// system file (SPEC §23 point 4) is trusted without a hash, so no group
// member, not even the user, may change it.
func RootOnly(path string) error { return RootOnlyCache{}.Check(path) }

// RootOnlyCache is RootOnly remembering each folder's verdict, for one
// decision that judges several files under the same folders (the programs
// of a pipeline all live in /usr/bin). A fresh one per decision.
type RootOnlyCache map[string]error

// Check is RootOnly(path), with the folders' verdicts shared.
func (c RootOnlyCache) Check(path string) error {
	abs, real, _, err := resolve(nil, path)
	if err != nil {
		return err
	}
	return c.CheckResolved(abs, real)
}

// CheckResolved is Check for an absolute path whose symlinks the caller
// already resolved to real.
func (c RootOnlyCache) CheckResolved(abs, real string) error {
	return chains(abs, real, func(p string, _ bool) error { return c.one(p) })
}

func (c RootOnlyCache) one(path string) error {
	if err, ok := c[path]; ok {
		return err
	}
	err := rootOnlyOne(path)
	if c != nil {
		c[path] = err
	}
	return err
}

func rootOnlyOne(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return &Problem{Path: path, Reason: "cannot be examined: " + unwrap(err)}
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil // its folder decides who may replace it; its target is checked
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &Problem{Path: path, Reason: "cannot be examined: no owner information"}
	}
	if st.Uid != 0 {
		return &Problem{Path: path, Reason: fmt.Sprintf("is owned by uid %d, not root", st.Uid)}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return &Problem{Path: path, Reason: fmt.Sprintf("is writable by its group or others (mode %s)", modeString(fi.Mode()))}
	}
	acl, err := readACL(path)
	if err != nil {
		return &Problem{Path: path, Reason: "cannot be examined: its ACL cannot be read: " + unwrap(err)}
	}
	masked := false
	for _, e := range acl {
		if e.Tag == aclMask && e.Perm&aclWrite == 0 {
			masked = true
		}
	}
	for _, e := range acl {
		if e.Perm&aclWrite == 0 || masked {
			continue
		}
		if (e.Tag == aclUser && e.ID != 0) || e.Tag == aclGroup || e.Tag == aclGroupObj {
			return &Problem{Path: path, Reason: "is writable by someone other than root through its POSIX ACL (see getfacl)"}
		}
	}
	return nil
}
