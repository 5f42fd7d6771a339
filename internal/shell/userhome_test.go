package shell

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// fakeGetent puts a getent that knows one user, ldapbob (uid 5000), and
// the current uid, and counts its runs, in place of the real one.
func fakeGetent(t *testing.T) (runs func() int) {
	t.Helper()
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	uid := strconv.Itoa(os.Getuid())
	script := "#!/bin/sh\necho x >>" + count + "\n" +
		"case \"$2\" in\n" +
		"ldapbob) echo 'ldapbob:x:5000:5000:Bob:/home/ldapbob:/bin/sh' ;;\n" +
		uid + ") echo 'me:x:" + uid + ":0::/home/me-from-nss/:/bin/sh' ;;\n" +
		"*) exit 2 ;;\nesac\n"
	p := filepath.Join(dir, "getent")
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	old := getentPaths
	getentPaths = []string{filepath.Join(dir, "missing"), p}
	getentCache = sync.Map{}
	t.Cleanup(func() { getentPaths, getentCache = old, sync.Map{} })
	return func() int {
		b, _ := os.ReadFile(count)
		return len(b) / 2
	}
}

func TestGetentHomeAsksNSSOnce(t *testing.T) {
	runs := fakeGetent(t)
	for range 3 {
		if h, ok := getentHome("ldapbob"); !ok || h != "/home/ldapbob" {
			t.Fatalf("getentHome(ldapbob) = %q, %v", h, ok)
		}
	}
	if h, ok := getentHome(""); !ok || h != "/home/me-from-nss/" {
		t.Errorf("getentHome(current uid) = %q, %v", h, ok)
	}
	if h, ok := getentHome("nobody-here"); ok {
		t.Errorf("an unknown user has the home %q", h)
	}
	// Names getent would read as a uid or an option are not asked.
	for _, name := range []string{"5000", "-s", "a:b"} {
		if h, ok := getentHome(name); ok {
			t.Errorf("getentHome(%q) = %q", name, h)
		}
	}
	if n := runs(); n != 3 {
		t.Errorf("getent ran %d times, want 3 (ldapbob once, the uid, nobody-here)", n)
	}
}

func TestPasswdHomeMatchesTheKeyedField(t *testing.T) {
	out := []byte("alice:x:1001:1001::/home/alice:/bin/sh\nbad line\nbob:x:1002:1002::/srv/bob:/bin/sh\n")
	for _, tc := range []struct {
		key   string
		byUID bool
		want  string
	}{
		{"bob", false, "/srv/bob"},
		{"1001", true, "/home/alice"},
		{"1001", false, ""},
		{"carol", false, ""},
	} {
		if got := passwdHome(out, tc.key, tc.byUID); got != tc.want {
			t.Errorf("passwdHome(%q, byUID %v) = %q, want %q", tc.key, tc.byUID, got, tc.want)
		}
	}
}

// In the shipped build (no cgo), a user only NSS knows expands as the
// agent's Python expands it.
func TestExpandTildeUserOnlyNSSKnows(t *testing.T) {
	if nssInProcess {
		t.Skip("built with cgo: os/user already asks NSS (run with CGO_ENABLED=0)")
	}
	fakeGetent(t)
	if got := ExpandTilde("~ldapbob/hook.sh --x", "/home/me"); got != "/home/ldapbob/hook.sh --x" {
		t.Errorf("ExpandTilde = %q", got)
	}
	if got := ExpandTilde("~nobody-here/hook.sh", "/home/me"); got != "~nobody-here/hook.sh" {
		t.Errorf("an unknown user's ~ was expanded: %q", got)
	}
}
