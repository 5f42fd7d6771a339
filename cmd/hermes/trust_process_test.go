//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hermesCmd is hermes (the test binary under that name, on PATH through
// testscript.Main) run off a terminal in home.
func hermesCmd(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "HERMES_HOME=" + filepath.Join(home, ".hermes"), "NO_COLOR=1"}
	cmd.Dir = home
	return cmd
}

// waitForFile waits until path exists: the event itself, polled, with a
// deadline far above what it takes.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never appeared", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// SPEC §13.14: a hook inherits only stdin, stdout and stderr. hermes is
// started with an extra descriptor (fd 3, as an agent's pipe would be);
// the hook must not have it.
func TestHookInheritsOnlyStdio(t *testing.T) {
	t.Parallel()
	home := newHome(t, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/fds.sh\"\n", map[string]string{
		"fds.sh": "#!/bin/sh\nif { true >&3; } 2>/dev/null; then echo open; else echo closed; fi > \"$HOME/fd3\"\n",
	})
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := hermesCmd(t, home, "--accept-hooks", "hooks", "run-event", "on_session_start")
	cmd.ExtraFiles = []*os.File{w}
	out, err := cmd.CombinedOutput()
	w.Close()
	if err != nil {
		t.Fatalf("run-event: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(home, "fd3"))
	if err != nil {
		t.Fatalf("the hook did not run: %v\n%s", err, out)
	}
	if strings.TrimSpace(string(got)) != "closed" {
		t.Errorf("fd 3 of hermes reached the hook (%s)", got)
	}
}

// interruptedRun runs hermes with args in home, sends sig once a hook has
// created $HOME/<started>, and fails the test unless hermes exits 130. It
// returns what hermes printed.
func interruptedRun(t *testing.T, home, started string, sig syscall.Signal, args ...string) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd := hermesCmd(t, home, args...)
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(home, started))
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130\n%s", err, stderr.String())
	}
	return stdout, stderr
}

// SPEC §13.17: every run is accounted for. SIGTERM while the second hook
// runs: exit 130, the --json document with the runs so far and
// "interrupted": true, and an audit line for the interrupted hook.
func TestRunEventInterruptedIsAccounted(t *testing.T) {
	t.Parallel()
	home := newHome(t, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/quick.sh\"\n    - command: \"~/.hermes/slow.sh\"\n    - command: \"~/.hermes/never.sh\"\n", map[string]string{
		"quick.sh": "#!/bin/sh\nexit 0\n",
		"slow.sh":  "#!/bin/sh\ntouch \"$HOME/slow-started\"\nexec sleep 60\n",
		"never.sh": "#!/bin/sh\ntouch \"$HOME/never-ran\"\n",
	})
	stdout, _ := interruptedRun(t, home, "slow-started", syscall.SIGTERM, "--accept-hooks", "hooks", "run-event", "on_session_start", "--json")
	var doc struct {
		Interrupted bool `json:"interrupted"`
		Hooks       []struct {
			Command, Status string
		} `json:"hooks"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not the document: %v\n%s", err, stdout.String())
	}
	if !doc.Interrupted || len(doc.Hooks) != 2 || doc.Hooks[0].Status != "fired" || doc.Hooks[1].Status != "interrupted" {
		t.Errorf("document = %+v; want interrupted, quick fired, slow interrupted, nothing after", doc)
	}
	if _, err := os.Stat(filepath.Join(home, "never-ran")); err == nil {
		t.Error("a hook after the interrupt ran")
	}
	audit, err := os.ReadFile(filepath.Join(home, ".hermes", "logs", "hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(audit)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], `"command":"~/.hermes/slow.sh"`) || !strings.Contains(lines[1], `"status":"interrupted"`) {
		t.Errorf("audit log:\n%s\nwant quick.sh, then slow.sh with status interrupted", audit)
	}
}

// asNobody prepares dir (and the folders above it) for the user nobody and
// returns the credential to run as them; it skips the test when that is
// impossible (not root, no such user).
func asNobody(t *testing.T, dir string) *syscall.Credential {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("running as another user needs root")
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody: %v", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	// The folders above dir must let nobody through.
	for p := filepath.Dir(dir); p != "/" && p != "."; p = filepath.Dir(p) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().Perm()&0o001 == 0 {
			if err := os.Chmod(p, fi.Mode().Perm()|0o011); err != nil {
				t.Skipf("cannot open %s to nobody: %v", p, err)
			}
		}
	}
	err = filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, gid)
	})
	if err != nil {
		t.Fatal(err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}
}

// copyHermes copies the test binary, which acts as hermes under that name,
// to a folder nobody can run it from.
func copyHermes(t *testing.T, dir string) string {
	t.Helper()
	self, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin", "hermes")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	// A hard link when it can be: a copy is open for writing while other
	// parallel tests fork, and a child holding that descriptor until its
	// exec makes running the copy fail with "text file busy".
	if real, err := filepath.EvalSymlinks(self); err == nil {
		if fi, err := os.Stat(real); err == nil && fi.Mode().Perm()&0o005 == 0o005 && os.Link(real, bin) == nil {
			return bin
		}
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// SPEC §13.2 with a second user: a pinned script replaced by an
// execute-only file cannot be hashed, so it is not trusted (it used to read
// as drift "missing", which was trusted). Root reads everything, so the
// victim's steps run as nobody.
func TestExecuteOnlyScriptNotTrusted(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	bin := copyHermes(t, root)
	if err := os.MkdirAll(filepath.Join(home, ".hermes"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".hermes", "config.yaml"), "hooks:\n  on_session_start:\n    - command: \"~/.hermes/hook.sh\"\n", 0o644)
	script := filepath.Join(home, ".hermes", "hook.sh")
	writeFile(t, script, "#!/bin/sh\necho approved version\n", 0o755)
	cred := asNobody(t, root)

	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "HERMES_HOME=" + filepath.Join(home, ".hermes"), "NO_COLOR=1"}
		cmd.Dir = home
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("hooks", "accept", "~/.hermes/hook.sh", "--yes"); err != nil {
		t.Fatalf("accept as nobody: %v\n%s", err, out)
	}
	// The attacker's version, execute-only: it runs, but cannot be hashed.
	writeFile(t, script, "#!/bin/sh\ntouch \"$HOME/pwned\"\n", 0o111)
	if err := os.Chmod(script, 0o111); err != nil {
		t.Fatal(err)
	}
	out, err := run("hooks", "run-event", "on_session_start", "--json")
	if err != nil {
		t.Fatalf("run-event as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"skip_reason": "script cannot be read since approval"`) {
		t.Errorf("run-event did not skip the unreadable pinned script:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, "pwned")); err == nil {
		t.Error("the execute-only replacement ran")
	}
}
