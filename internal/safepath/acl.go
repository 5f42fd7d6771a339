package safepath

import (
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// POSIX access ACLs (acl(5)), as Linux stores them in the extended
// attribute system.posix_acl_access (include/uapi/linux/posix_acl_xattr.h):
// a little-endian header {u32 version = 2} and entries {u16 tag, u16 perm,
// u32 id}. The mode's group bits are the mask when an ACL is present; named
// users and groups get at most what the mask allows.
const (
	aclXattr   = "system.posix_acl_access"
	aclVersion = 2

	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclGroup    = 0x08
	aclMask     = 0x10
	aclOther    = 0x20

	aclWrite = 0x02
)

// ACLEntry is one entry of an access ACL.
type ACLEntry struct {
	Tag  uint16
	Perm uint16
	ID   uint32 // uid or gid for aclUser and aclGroup
}

// ParseACL decodes the value of system.posix_acl_access.
func ParseACL(b []byte) ([]ACLEntry, error) {
	if len(b) < 4 || (len(b)-4)%8 != 0 {
		return nil, fmt.Errorf("malformed ACL of %d bytes", len(b))
	}
	if v := binary.LittleEndian.Uint32(b); v != aclVersion {
		return nil, fmt.Errorf("ACL version %d, not %d", v, aclVersion)
	}
	var out []ACLEntry
	for i := 4; i < len(b); i += 8 {
		out = append(out, ACLEntry{
			Tag:  binary.LittleEndian.Uint16(b[i:]),
			Perm: binary.LittleEndian.Uint16(b[i+2:]),
			ID:   binary.LittleEndian.Uint32(b[i+4:]),
		})
	}
	return out, nil
}

// EncodeACL is the inverse of ParseACL (for tests and tools writing one).
func EncodeACL(entries []ACLEntry) []byte {
	b := make([]byte, 4+8*len(entries))
	binary.LittleEndian.PutUint32(b, aclVersion)
	for i, e := range entries {
		o := 4 + 8*i
		binary.LittleEndian.PutUint16(b[o:], e.Tag)
		binary.LittleEndian.PutUint16(b[o+2:], e.Perm)
		binary.LittleEndian.PutUint32(b[o+4:], e.ID)
	}
	return b
}

// readACL returns the access ACL of path (not following a final symlink),
// nil when it has none or the file system keeps none.
func readACL(path string) ([]ACLEntry, error) {
	buf := make([]byte, 256)
	for {
		n, err := unix.Lgetxattr(path, aclXattr, buf)
		switch {
		case errors.Is(err, unix.ERANGE):
			buf = make([]byte, 2*len(buf))
			continue
		case errors.Is(err, unix.ENODATA), errors.Is(err, unix.ENOTSUP), errors.Is(err, unix.EOPNOTSUPP):
			return nil, nil
		case err != nil:
			return nil, err
		}
		return ParseACL(buf[:n])
	}
}

// aclWriters judges an ACL: "" when it lets nobody but the owner (and root)
// write, else who else may. Named users other than the owner and root are
// writers; named groups are writers when they have a member other than the
// owner (the user-private group rule); both only if the mask lets them.
func (c *Checker) aclWriters(acl []ACLEntry, owner int) string {
	masked := false
	for _, e := range acl {
		if e.Tag == aclMask && e.Perm&aclWrite == 0 {
			masked = true
		}
	}
	if masked {
		return ""
	}
	for _, e := range acl {
		if e.Perm&aclWrite == 0 {
			continue
		}
		switch e.Tag {
		case aclUser:
			if int(e.ID) != owner && e.ID != 0 {
				return "user " + c.userName(int(e.ID))
			}
		case aclGroup:
			if others := c.otherMembers(int(e.ID), owner); others != "" {
				return fmt.Sprintf("group %s (%s)", c.groupName(int(e.ID)), others)
			}
		}
	}
	return ""
}
