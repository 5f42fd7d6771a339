package safepath

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
func RootOnly(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return &Problem{Path: abs, Reason: "cannot be examined: " + unwrap(err)}
	}
	for p := real; ; p = filepath.Dir(p) {
		if err := rootOnlyOne(p); err != nil {
			return err
		}
		if p == "/" || p == "." {
			break
		}
	}
	if real == abs {
		return nil
	}
	// Whoever can write a folder of the path as written can repoint a link.
	for p := filepath.Dir(abs); ; p = filepath.Dir(p) {
		if err := rootOnlyOne(p); err != nil {
			return err
		}
		if p == "/" || p == "." {
			return nil
		}
	}
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
