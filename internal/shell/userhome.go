package shell

import (
	"bytes"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"sync"
)

// userHome is the home folder of the user called name, or of the current
// user when name is "", as the agent's Python finds it (pwd.getpwnam,
// pwd.getpwuid: the C library's name service, NSS). A hermes built
// without cgo (as it is shipped: a static binary starts faster) reads only
// /etc/passwd in-process; a user known only to another source (LDAP,
// sssd, systemd) is then asked of getent(1), which goes through NSS.
func userHome(name string) (string, bool) {
	var u *user.User
	var err error
	if name == "" {
		u, err = user.Current()
	} else {
		u, err = user.Lookup(name)
	}
	if err == nil {
		return u.HomeDir, true
	}
	if nssInProcess {
		return "", false
	}
	return getentHome(name)
}

// getentPaths are where getent(1) is looked for: fixed, so that a PATH
// cannot choose the program that says where a user's home is.
var getentPaths = []string{"/usr/bin/getent", "/bin/getent"}

// getentCache keeps each answer for the process: a long config may name
// the same missing user many times.
var getentCache sync.Map // key → home ("" when unknown)

// getentHome asks getent for the passwd entry of name (of the current
// uid when name is ""). A name getent would take for a uid or an option,
// or that could not be a passwd field, is unknown without asking.
func getentHome(name string) (string, bool) {
	key := name
	if name == "" {
		key = strconv.Itoa(os.Getuid())
	} else if !getentName(name) {
		return "", false
	}
	if home, ok := getentCache.Load(key); ok {
		return home.(string), home != ""
	}
	home := ""
	for _, p := range getentPaths {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		// Exit status 2: no such user.
		if out, err := exec.Command(p, "passwd", key).Output(); err == nil {
			home = passwdHome(out, key, name == "")
		}
		break
	}
	getentCache.Store(key, home)
	return home, home != ""
}

// getentName reports whether getent would look name up as a user name:
// not all digits (a uid), not an option, and free of the passwd format's
// separators.
func getentName(name string) bool {
	if strings.HasPrefix(name, "-") || strings.ContainsAny(name, ":\n\x00") {
		return false
	}
	_, err := strconv.ParseUint(name, 10, 64)
	return err != nil
}

// passwdHome is the home field of the passwd line in out whose name (or
// uid, byUID) is key; "" when there is none.
func passwdHome(out []byte, key string, byUID bool) string {
	for line := range bytes.Lines(out) {
		f := strings.Split(strings.TrimRight(string(line), "\n"), ":")
		if len(f) != 7 {
			continue
		}
		if byUID && f[2] == key || !byUID && f[0] == key {
			return f[5]
		}
	}
	return ""
}
