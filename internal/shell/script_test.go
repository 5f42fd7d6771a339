package shell

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func writeFile(t testing.TB, path, content string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	// WriteFile's mode is filtered by the umask; tests need it exact.
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestResolveScript(t *testing.T) {
	bin := t.TempDir()
	guard := writeFile(t, filepath.Join(bin, "guard"), "#!/bin/sh\n", 0o755)
	guardSh := writeFile(t, filepath.Join(bin, "guard.sh"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(bin, "noexec"), "#!/bin/sh\n", 0o644)
	t.Setenv("PATH", bin)
	cwd := t.TempDir()
	t.Chdir(cwd)
	cwd, _ = os.Getwd() // t.TempDir may sit behind a symlink

	cases := []struct {
		argv      []string
		want      string
		wantFirst bool
	}{
		{[]string{"guard.sh"}, guardSh, true},
		{[]string{"guard", "--flag"}, guard, true},
		{[]string{"python3", "hook.py", "--x"}, filepath.Join(cwd, "hook.py"), false},
		{[]string{"bash", "./lib/HOOK.SH"}, filepath.Join(cwd, "lib/HOOK.SH"), false},
		{[]string{"node", "a/b", "c.ts"}, filepath.Join(cwd, "c.ts"), false},
		{[]string{"guard", "--conf", "x/y.conf"}, filepath.Join(cwd, "x/y.conf"), false},
		// A "~" left in argv is literal: the process opens ./~/…
		{[]string{"~/h/run", "arg"}, filepath.Join(cwd, "~/h/run"), true},
		{[]string{"python3", "~/x.PY"}, filepath.Join(cwd, "~/x.PY"), false},
		{[]string{"/opt/hooks/check", "a.txt"}, "/opt/hooks/check", true},
		{[]string{"bin/check"}, filepath.Join(cwd, "bin/check"), true},
		{[]string{"missing-cmd", "x"}, "missing-cmd", true},
		// Not executable, so exec would not find it in PATH either.
		{[]string{"noexec"}, "noexec", true},
		{nil, "", false},
	}
	for _, tc := range cases {
		got, first := ResolveScript(tc.argv)
		if got != tc.want || first != tc.wantFirst {
			t.Errorf("ResolveScript(%q) = %q, %v; want %q, %v", tc.argv, got, first, tc.want, tc.wantFirst)
		}
	}
}

func TestTildeScript(t *testing.T) {
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{"python3", "~/x.py"}, "~/x.py"},
		{[]string{"~nosuchuser/x.sh"}, "~nosuchuser/x.sh"},
		{[]string{"bash", "~/bin/run", "--x"}, "~/bin/run"},
		{[]string{"/home/u/x.sh", "--conf", "~/c"}, ""}, // not the script
		{[]string{"python3", "/home/u/x.py"}, ""},
		{[]string{"echo", "~"}, "~"},
		{nil, ""},
	}
	for _, tc := range cases {
		if got := TildeScript(tc.argv); got != tc.want {
			t.Errorf("TildeScript(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}

func TestCheckExecutable(t *testing.T) {
	dir := t.TempDir()
	exe := writeFile(t, filepath.Join(dir, "exe.sh"), "#!/bin/sh\n", 0o755)
	plain := writeFile(t, filepath.Join(dir, "plain.py"), "print(1)\n", 0o644)
	secret := writeFile(t, filepath.Join(dir, "secret.py"), "print(1)\n", 0o000)
	link := filepath.Join(dir, "link.sh")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "dangling.sh")
	if err := os.Symlink(filepath.Join(dir, "gone.sh"), dangling); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.sh")
	if err := unix.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	crlf := writeFile(t, filepath.Join(dir, "crlf.sh"), "#!/bin/sh\r\necho hi\r\n", 0o755)
	nointerp := writeFile(t, filepath.Join(dir, "nointerp.sh"), "#!  /no/such/interp -x\necho\n", 0o755)
	long := writeFile(t, filepath.Join(dir, "long.sh"), "#!/no/"+strings.Repeat("x", 300)+"\n", 0o755)
	root := os.Geteuid() == 0
	// The head a cache keeps (code.Memo.HashBang): the #! line alone.
	firstLine := func(path string) []byte {
		head := ReadHead(path)
		if !bytes.HasPrefix(head, []byte("#!")) {
			return nil
		}
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		}
		return head
	}
	// The script's stat, as a cache of it would give it.
	stats := map[string]int{}
	stat := func(path string) (fs.FileInfo, error) {
		stats[filepath.Base(path)]++
		return os.Stat(path)
	}
	// A cache of which interpreters are there, asked once each.
	asked := map[string]int{}
	exists := func(path string) bool {
		asked[path]++
		_, err := os.Stat(path)
		return err == nil
	}

	cases := []struct {
		name      string
		path      string
		firstWord bool
		wantErr   string // substring; "" means no error
		skip      bool
	}{
		{name: "executable first word", path: exe, firstWord: true},
		{name: "executable after interpreter", path: exe},
		{name: "readable script after interpreter", path: plain},
		{name: "no x bit as first word", path: plain, firstWord: true, wantErr: "is not executable (mode -rw-r--r--); run chmod +x"},
		{name: "symlink to script", path: link, firstWord: true},
		{name: "missing", path: filepath.Join(dir, "nope.sh"), firstWord: true, wantErr: "does not exist"},
		{name: "dangling symlink", path: dangling, wantErr: "does not exist"},
		{name: "below a file", path: filepath.Join(plain, "x.sh"), wantErr: "does not exist"},
		{name: "directory", path: dir, firstWord: true, wantErr: "is a directory"},
		{name: "fifo", path: fifo, firstWord: true, wantErr: "is not a regular file"},
		{name: "CRLF shebang", path: crlf, firstWord: true, wantErr: `names interpreter "/bin/sh\r" on its #! line, which does not exist`},
		{name: "CRLF shebang after interpreter", path: crlf},
		{name: "missing interpreter", path: nointerp, firstWord: true, wantErr: `names interpreter "/no/such/interp"`},
		{name: "#! line longer than the head", path: long, firstWord: true, wantErr: `names interpreter "/no/xxx`},
		{name: "bare name not in PATH", path: "missing-cmd", firstWord: true, wantErr: "not found in PATH"},
		// root reads everything, so this row can only fail for others.
		{name: "unreadable after interpreter", path: secret, wantErr: "is not readable", skip: root},
		{name: "unreadable no x bit as first word", path: secret, firstWord: true, wantErr: "is not executable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.skip {
				t.Skip("running as root")
			}
			err := CheckExecutable(tc.path, tc.firstWord)
			// Reading the #! line through a cache of it says the same.
			if with := CheckExecutableWith(tc.path, tc.firstWord, ExecProbes{Stat: stat, Head: firstLine, Exists: exists}); fmt.Sprint(with) != fmt.Sprint(err) {
				t.Fatalf("with the #! line cached: %v; read now: %v", with, err)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckExecutable(%q, %v) = %v; want nil", tc.path, tc.firstWord, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("CheckExecutable(%q, %v) = %v; want an error naming the path and saying %q", tc.path, tc.firstWord, err, tc.wantErr)
			}
		})
	}
	if stats["nope.sh"] == 0 || stats[filepath.Base(fifo)] == 0 {
		t.Errorf("the scripts were not stat'd by the probe: %v", stats)
	}
	if asked["/no/such/interp"] == 0 || asked["/bin/sh"] == 0 {
		t.Errorf("the interpreters were not asked of the probe: %v", asked)
	}
}
