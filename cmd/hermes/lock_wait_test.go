//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// SPEC §13 rule 12, the allowlist lock: a hermes waiting for the lock
// another process holds says so, obeys SIGINT/SIGTERM (exit 130, nothing
// written) and gives up after --lock-timeout (exit 1).

const waitingMessage = "waiting for the allowlist lock (held by another hermes or the agent)…"

// lockedHome is a home with one approval, whose allowlist lock the test
// holds (as the agent or another hermes would) until it ends.
func lockedHome(t *testing.T) (home string, allowlistBefore []byte) {
	t.Helper()
	home = newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	path := filepath.Join(home, ".hermes", "shell-hooks-allowlist.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	return home, before
}

// startHermes starts hermes off a terminal with stderr on a pipe.
func startHermes(t *testing.T, home string, args ...string) (*exec.Cmd, *bufio.Reader) {
	t.Helper()
	cmd := hermesCmd(t, home, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd, bufio.NewReader(stderr)
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return -1
}

func TestLockWaitObeysSignals(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			home, before := lockedHome(t)
			cmd, stderr := startHermes(t, home, "hooks", "revoke", "~/.hermes/hook.sh")
			line, err := stderr.ReadString('\n') // the wait is announced
			if err != nil || strings.TrimSpace(line) != waitingMessage {
				t.Fatalf("first stderr line %q (%v), want %q", line, err, waitingMessage)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := stderr.ReadString(0)
			if code := exitCode(t, cmd.Wait()); code != 130 {
				t.Errorf("exit %d after %s, want 130; stderr: %s", code, sig, rest)
			}
			if !strings.Contains(rest, "interrupted") {
				t.Errorf("stderr after %s: %q, want it to say interrupted", sig, rest)
			}
			after, err := os.ReadFile(filepath.Join(home, ".hermes", "shell-hooks-allowlist.json"))
			if err != nil || !bytes.Equal(after, before) {
				t.Errorf("the allowlist changed after %s (%v):\n%s", sig, err, after)
			}
		})
	}
}

// An approval interrupted while it waits for the lock leaves nothing
// behind: not even the snapshot of the script it would have recorded.
func TestLockWaitInterruptedApprovalLeavesNoSnapshot(t *testing.T) {
	t.Parallel()
	home, _ := lockedHome(t)
	script := filepath.Join(home, ".hermes", "hook.sh")
	writeFile(t, script, strings.Replace(firingHook, "# old line", "# new line", 1), 0o755)
	snapshot := filepath.Join(home, ".hermes", "shell-hooks-snapshots", sha256Of(t, script))
	cmd, stderr := startHermes(t, home, "hooks", "accept", "~/.hermes/hook.sh", "--yes")
	if line, err := stderr.ReadString('\n'); err != nil || strings.TrimSpace(line) != waitingMessage {
		t.Fatalf("first stderr line %q (%v), want %q", line, err, waitingMessage)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_, _ = stderr.ReadString(0)
	if code := exitCode(t, cmd.Wait()); code != 130 {
		t.Errorf("exit %d, want 130", code)
	}
	if _, err := os.Stat(snapshot); err == nil {
		t.Errorf("the interrupted approval left a snapshot: %s", snapshot)
	}
}

func TestLockWaitTimesOut(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"1", "1s", "0.5"} {
		t.Run(flag, func(t *testing.T) {
			t.Parallel()
			home, before := lockedHome(t)
			cmd, stderr := startHermes(t, home, "--lock-timeout", flag, "hooks", "revoke", "~/.hermes/hook.sh")
			out, _ := stderr.ReadString(0)
			if code := exitCode(t, cmd.Wait()); code != 1 {
				t.Errorf("exit %d, want 1; stderr: %s", code, out)
			}
			if !strings.Contains(out, "gave up waiting for the allowlist lock") || !strings.Contains(out, "--lock-timeout") {
				t.Errorf("stderr %q does not say it gave up and how to wait longer", out)
			}
			after, _ := os.ReadFile(filepath.Join(home, ".hermes", "shell-hooks-allowlist.json"))
			if !bytes.Equal(after, before) {
				t.Errorf("the allowlist changed after the timeout:\n%s", after)
			}
		})
	}
}

func TestLockTimeoutFlagRefusesNonsense(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, nil)
	for _, v := range []string{"0", "-1", "soon"} {
		cmd, stderr := startHermes(t, home, "--lock-timeout", v, "hooks", "revoke", "x")
		out, _ := stderr.ReadString(0)
		if code := exitCode(t, cmd.Wait()); code != 2 {
			t.Errorf("--lock-timeout %s: exit %d, want 2; stderr: %s", v, code, out)
		}
	}
}

// A payload read from a stdin that never ends (a pipe whose writer stays)
// gives way to SIGTERM too.
func TestPayloadFromStdinObeysSignals(t *testing.T) {
	t.Parallel()
	home := newHome(t, oneHookConfig, map[string]string{"hook.sh": firingHook})
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatal(err)
	}
	// --verbose: the last line it prints before reading the payload says
	// the signal handler is in place and the read comes next.
	cmd := exec.Command(bin, "--verbose", "hooks", "test", "on_session_start", "-")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "HERMES_HOME=" + filepath.Join(home, ".hermes"), "NO_COLOR=1"}
	stdin, err := cmd.StdinPipe() // never closed until the test ends
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	if _, err := stdin.Write([]byte(`{"session_id": `)); err != nil {
		t.Fatal(err)
	}
	stderr := bufio.NewReader(stderrPipe)
	for {
		line, err := stderr.ReadString('\n')
		if err != nil {
			t.Fatalf("hermes ended before reading the payload: %v", err)
		}
		if strings.HasPrefix(line, "hermes: allowlist ") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := stderr.ReadString(0)
	if code := exitCode(t, cmd.Wait()); code != 130 {
		t.Errorf("exit %d, want 130; stderr: %s", code, rest)
	}
	if fired(home) {
		t.Error("the hook ran after the interrupt")
	}
}
