// Package safepath decides whether anyone but the invoking user (or root)
// could change a file, the way OpenSSH's StrictModes judges authorized_keys:
// the file and every folder above it up to / must be owned by the user or
// root, and writable by nobody else. A folder with the sticky bit (like
// /tmp) may be writable by all, since its entries can then only be replaced
// by their owners, whom the rule already checks. Group write is fine when
// the group has no member other than the owner (a user-private group).
package safepath

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/hermes-hooks/hermes/internal/memo"
)

// Checker judges paths for one invoking user. The zero value is not ready:
// use New.
type Checker struct {
	UID int
	// Users and Groups are read from /etc/passwd and /etc/group on first
	// use; tests replace them.
	Users  func() ([]User, error)
	Groups func() ([]Group, error)

	once   sync.Once
	db     *accounts
	dbErr  error
	checks memo.Map[string, error] // per folder or file of a chain
	paths  memo.Map[string, error] // per path given to Check
	// Resolver resolves each folder's symlinks once for the paths given,
	// and lstats each file once: New makes one; a Checker may share the
	// one of the invocation's other caches. Nil remembers nothing.
	Resolver *Resolver
}

// User is a line of /etc/passwd that matters here.
type User struct {
	Name string
	UID  int
	GID  int
}

// Group is a line of /etc/group that matters here.
type Group struct {
	Name    string
	GID     int
	Members []string
}

// New returns a Checker for the user with this uid, reading the account
// databases of the machine.
func New(uid int) *Checker {
	return &Checker{UID: uid, Users: readPasswd, Groups: readGroup, Resolver: new(Resolver)}
}

// Problem says who else could change a path and why.
type Problem struct {
	Path   string
	Reason string
}

func (p *Problem) Error() string { return p.Path + " " + p.Reason }

// Check returns nil when only the user or root can change the file at
// path: the file itself, every folder above it up to /, and, when symlinks
// are involved, both the folders of the path as written and those of the
// file it resolves to. Otherwise a *Problem names the first path that fails
// and why. A path that cannot be examined is an error too: it is not known
// to be safe. Results are cached per path for the life of the Checker (one
// invocation); the decision to run a hook asks again with a fresh Checker.
func (c *Checker) Check(path string) error {
	// Resolving symlinks costs a stat per component: hooks sharing a script
	// (or a folder of scripts) must not pay it again for each hook.
	return c.paths.Get(path, func() error { return c.check(path) })
}

func (c *Checker) check(path string) error {
	abs, real, fi, err := resolve(c.Resolver, path)
	if err != nil {
		return err
	}
	return chains(abs, real, func(p string, isFile bool) error {
		if fi != nil && isFile && p == real {
			// The file as resolving it found it: judged without another
			// lstat (one per script of 100,000).
			return c.checks.Get(p, func() error { return c.judgeInfo(p, isFile, fi) })
		}
		return c.checkOne(p, isFile)
	})
}

// resolve is path made absolute, and the file it resolves to (by r, which
// may be nil), with that file's lstat when resolving made one.
func resolve(r *Resolver, path string) (abs, real string, fi fs.FileInfo, err error) {
	abs, err = filepath.Abs(path)
	if err != nil {
		return "", "", nil, err
	}
	real, fi, err = r.evalSymlinksInfo(abs)
	if err != nil {
		return "", "", nil, &Problem{Path: abs, Reason: "cannot be examined: " + unwrap(err)}
	}
	return abs, real, fi, nil
}

// chains asks one of real (the file, isFile) and every folder above it up
// to /, then, when abs goes through a symlink, of every folder of abs as
// written: whoever can write one of those can repoint the link. The first
// error ends the walk. Check and RootOnly judge the same paths, each by its
// own rule.
func chains(abs, real string, one func(p string, isFile bool) error) error {
	if err := chain(real, true, one); err != nil {
		return err
	}
	if real != abs {
		return chain(filepath.Dir(abs), false, one)
	}
	return nil
}

// chain asks one of path (a file when isFile) and every folder above it.
func chain(path string, isFile bool, one func(p string, isFile bool) error) error {
	for p := path; ; p = filepath.Dir(p) {
		if err := one(p, isFile && p == path); err != nil {
			return err
		}
		if p == "/" || p == "." {
			return nil
		}
	}
}

func (c *Checker) checkOne(path string, isFile bool) error {
	return c.checks.Get(path, func() error { return c.judge(path, isFile) })
}

func (c *Checker) judge(path string, isFile bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return &Problem{Path: path, Reason: "cannot be examined: " + unwrap(err)}
	}
	return c.judgeInfo(path, isFile, fi)
}

// judgeInfo is judge of the file whose lstat is fi.
func (c *Checker) judgeInfo(path string, isFile bool, fi fs.FileInfo) error {
	if fi.Mode()&fs.ModeSymlink != 0 {
		// A link's own mode means nothing; its folder (checked too) decides
		// who may replace it, and its target is checked through the
		// resolved path.
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return &Problem{Path: path, Reason: "cannot be examined: no owner information"}
	}
	owner := int(st.Uid)
	if owner != c.UID && owner != 0 {
		return &Problem{Path: path, Reason: fmt.Sprintf("is owned by %s, not by you or root", c.userName(owner))}
	}
	mode := fi.Mode()
	sticky := fi.IsDir() && mode&fs.ModeSticky != 0
	if mode.Perm()&0o002 != 0 && !sticky {
		what := "writable by others"
		if !isFile && fi.IsDir() {
			what = "a folder writable by others without the sticky bit"
		}
		return &Problem{Path: path, Reason: fmt.Sprintf("is %s (mode %s, owner %s)", what, modeString(mode), c.userName(owner))}
	}
	if sticky {
		return nil
	}
	// With an ACL the mode's group bits are its mask: the owning group's
	// own entry says what that group may do.
	acl, err := readACL(path)
	if err != nil {
		return &Problem{Path: path, Reason: "cannot be examined: its ACL cannot be read: " + unwrap(err)}
	}
	groupWrite := mode.Perm()&0o020 != 0
	for _, e := range acl {
		if e.Tag == aclGroupObj {
			groupWrite = groupWrite && e.Perm&aclWrite != 0
		}
	}
	if groupWrite {
		if others := c.otherMembers(int(st.Gid), owner); others != "" {
			return &Problem{Path: path, Reason: fmt.Sprintf("is writable by group %s, which has members other than its owner %s (%s) (mode %s)",
				c.groupName(int(st.Gid)), c.userName(owner), others, modeString(mode))}
		}
	}
	if who := c.aclWriters(acl, owner); who != "" {
		return &Problem{Path: path, Reason: fmt.Sprintf("is writable by %s through its POSIX ACL (owner %s, mode %s; see getfacl)", who, c.userName(owner), modeString(mode))}
	}
	return nil
}

// modeString is the mode as ls shows it (drwxrwxrwt), not Go's dtrwxrwxrwx.
func modeString(m fs.FileMode) string {
	s := []byte(m.Perm().String())
	if m.IsDir() {
		s[0] = 'd'
	}
	if m&fs.ModeSticky != 0 {
		if s[9] == 'x' {
			s[9] = 't'
		} else {
			s[9] = 'T'
		}
	}
	return string(s)
}

// unwrap is the OS reason of err without the path, which the Problem
// already names.
func unwrap(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// accounts is the part of the account databases the rule needs.
type accounts struct {
	userByUID  map[int]string
	groupByGID map[int]Group
	primary    map[int][]string // gid → users whose primary group it is
}

func (c *Checker) accounts() (*accounts, error) {
	c.once.Do(func() {
		users, err := c.Users()
		if err != nil {
			c.dbErr = err
			return
		}
		groups, err := c.Groups()
		if err != nil {
			c.dbErr = err
			return
		}
		a := &accounts{userByUID: map[int]string{}, groupByGID: map[int]Group{}, primary: map[int][]string{}}
		for _, u := range users {
			if _, dup := a.userByUID[u.UID]; !dup {
				a.userByUID[u.UID] = u.Name
			}
			a.primary[u.GID] = append(a.primary[u.GID], u.Name)
		}
		for _, g := range groups {
			if _, dup := a.groupByGID[g.GID]; !dup {
				a.groupByGID[g.GID] = g
			}
		}
		c.db = a
	})
	return c.db, c.dbErr
}

func (c *Checker) userName(uid int) string {
	if a, err := c.accounts(); err == nil {
		if name, ok := a.userByUID[uid]; ok {
			return fmt.Sprintf("%s (uid %d)", name, uid)
		}
	}
	return fmt.Sprintf("uid %d", uid)
}

func (c *Checker) groupName(gid int) string {
	if a, err := c.accounts(); err == nil {
		if g, ok := a.groupByGID[gid]; ok {
			return fmt.Sprintf("%s (gid %d)", g.Name, gid)
		}
	}
	return fmt.Sprintf("gid %d", gid)
}

// otherMembers lists the members of group gid other than the owner: its
// member list and the users whose primary group it is. "" when there are
// none. An unknown group, or unreadable databases, are assumed shared.
func (c *Checker) otherMembers(gid, owner int) string {
	a, err := c.accounts()
	if err != nil {
		return "its members cannot be read: " + err.Error()
	}
	ownerName, known := a.userByUID[owner]
	g, ok := a.groupByGID[gid]
	if !ok {
		return "the group is unknown, so its members cannot be told"
	}
	seen := map[string]bool{}
	var others []string
	for _, m := range append(append([]string{}, g.Members...), a.primary[gid]...) {
		if (known && m == ownerName) || seen[m] {
			continue
		}
		seen[m] = true
		others = append(others, m)
	}
	return strings.Join(others, ", ")
}

func readPasswd() ([]User, error) {
	var out []User
	err := scanColon("/etc/passwd", func(f []string) {
		if len(f) < 4 {
			return
		}
		uid, err1 := strconv.Atoi(f[2])
		gid, err2 := strconv.Atoi(f[3])
		if err1 == nil && err2 == nil {
			out = append(out, User{Name: f[0], UID: uid, GID: gid})
		}
	})
	return out, err
}

func readGroup() ([]Group, error) {
	var out []Group
	err := scanColon("/etc/group", func(f []string) {
		if len(f) < 4 {
			return
		}
		gid, err := strconv.Atoi(f[2])
		if err != nil {
			return
		}
		g := Group{Name: f[0], GID: gid}
		for _, m := range strings.Split(f[3], ",") {
			if m = strings.TrimSpace(m); m != "" {
				g.Members = append(g.Members, m)
			}
		}
		out = append(out, g)
	})
	return out, err
}

func scanColon(path string, line func([]string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		line(strings.Split(text, ":"))
	}
	return sc.Err()
}
