//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer a process writes to while the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// watching is a hermes ... --watch process whose stdout is read line by
// line.
type watching struct {
	t      *testing.T
	cmd    *exec.Cmd
	lines  chan string
	stderr lockedBuffer
}

func startWatching(t *testing.T, home string, args ...string) *watching {
	t.Helper()
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatalf("hermes is not on PATH (TestMain's testscript.Main puts it there): %v", err)
	}
	w := &watching{t: t, cmd: exec.Command(bin, args...), lines: make(chan string)}
	w.cmd.Env = append(os.Environ(), "HOME="+home, "HERMES_HOME="+filepath.Join(home, ".hermes"), "NO_COLOR=1")
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w.cmd.Stderr = &w.stderr
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if w.cmd.ProcessState == nil {
			_ = w.cmd.Process.Kill()
			_ = w.cmd.Wait()
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			w.lines <- sc.Text()
		}
		close(w.lines)
	}()
	return w
}

// waitForLine reads the output until a line equal to want.
func (w *watching) waitForLine(want string) {
	w.t.Helper()
	w.waitFor(fmt.Sprintf("%q", want), func(line string) bool { return line == want })
}

// waitFor reads the output until a line that match accepts.
func (w *watching) waitFor(what string, match func(string) bool) {
	w.t.Helper()
	deadline := time.After(failAfter) // bounds a test going wrong
	for {
		select {
		case line, ok := <-w.lines:
			if !ok {
				w.t.Fatalf("hermes stopped before printing %s; stderr:\n%s", what, w.stderr.String())
			}
			if match(line) {
				return
			}
		case <-deadline:
			w.t.Fatalf("no %s after %s; stderr:\n%s", what, failAfter, w.stderr.String())
		}
	}
}

// interrupt sends Ctrl-C and checks the exit code is 130.
func (w *watching) interrupt() {
	w.t.Helper()
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		w.t.Fatal(err)
	}
	for range w.lines { // drain until the process closes stdout
	}
	err := w.cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 130 {
		w.t.Fatalf("after Ctrl-C: %v, want exit 130; stderr:\n%s", err, w.stderr.String())
	}
}

// save writes path as editors do: a new file renamed over the old one.
func save(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	writeFile(t, tmp, text, mode)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// test --cases --watch, run as a user runs it: the real binary, its
// output read line by line. It reports, an editor saves a new version of
// the hook's script, it reports again with the new script's answer, and
// Ctrl-C ends it with exit 130. Every step waits for the output it needs,
// never for a fixed time.
func TestWatchRerunsAfterAnEdit(t *testing.T) {
	home, script, cases := watchedGuardHome(t)
	writeFile(t, script, "#!/bin/sh\ncat >/dev/null\n", 0o755)
	writeFile(t, cases, "- {name: rm is refused, event: pre_tool_call, expect: {action: block}}\n", 0o644)

	w := startWatching(t, home, "hooks", "test", "--cases", cases, "--watch")
	w.waitForLine("1 case: 0 passed, 1 failed")
	save(t, script, "#!/bin/sh\ncat >/dev/null\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
	w.waitForLine("1 case: 1 passed, 0 failed")
	// The case file is watched too.
	save(t, cases, "- {name: rm is refused, event: pre_tool_call, expect: {action: allow}}\n", 0o644)
	w.waitForLine("1 case: 0 passed, 1 failed")
	w.interrupt()
	// Once the process is gone all of its stderr has been copied.
	for _, changed := range []string{script, cases} {
		if !strings.Contains(w.stderr.String(), changed+" changed: running again") {
			t.Errorf("stderr does not say %s changed:\n%s", changed, w.stderr.String())
		}
	}
}

// A plain test <event> --watch reruns when the config changes: a hook
// added to the config fires on the next run.
func TestWatchPlainTestSeesConfig(t *testing.T) {
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(hermesHome, 0o755); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(hermesHome, "config.yaml")
	writeFile(t, config, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/a.sh\"\n", 0o644)
	writeFile(t, filepath.Join(hermesHome, "a.sh"), "#!/bin/sh\ncat >/dev/null\n", 0o755)

	w := startWatching(t, home, "hooks", "test", "on_session_start", "--watch")
	w.waitForLine("Firing 1 hook(s) for event 'on_session_start':")
	save(t, config, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/a.sh\"\n    - command: \"~/.hermes/a.sh again\"\n", 0o644)
	w.waitForLine("Firing 2 hook(s) for event 'on_session_start':")
	w.interrupt()
}

// SPEC §25: when the watched script of a protected hook is edited, it is
// no longer approved and its guard refuses it: test --cases --watch says
// so once, with the command that approves it, instead of reporting every
// case as failed; approving it runs the cases again.
func TestWatchSaysTheScriptIsNoLongerApproved(t *testing.T) {
	home, script, cases := watchedGuardHome(t)
	blocking := "#!/bin/sh\ncat >/dev/null\necho '{\"action\": \"block\", \"message\": \"no\"}'\n"
	writeFile(t, script, blocking, 0o755)
	writeFile(t, cases, "- {name: rm is refused, event: pre_tool_call, expect: {action: block}}\n- {name: ls is refused too, event: pre_tool_call, expect: {action: block}}\n", 0o644)
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	runOffTerminal(t, home, "hooks", "protect", "--all")

	w := startWatching(t, home, "hooks", "test", "--cases", cases, "--watch")
	w.waitForLine("2 cases: 2 passed, 0 failed")
	save(t, script, blocking+"# stricter\n", 0o755)
	const said = "guard.sh changed and is no longer approved: its guard refuses it, so no case was run; approve it with: hermes hooks accept '${HOME}/.hermes/guard.sh' --event pre_tool_call"
	waitForText(t, &w.stderr, said)
	runOffTerminal(t, home, "hooks", "accept", "${HOME}/.hermes/guard.sh", "--event", "pre_tool_call", "--yes")
	w.waitFor("the cases passing again", func(line string) bool {
		if strings.Contains(line, "failed") && !strings.HasSuffix(line, " 0 failed") {
			t.Errorf("a case was reported failed: %q", line)
		}
		return line == "2 cases: 2 passed, 0 failed"
	})
	w.interrupt()
	if n := strings.Count(w.stderr.String(), "no longer approved"); n != 1 {
		t.Errorf("said %d times that the script is no longer approved:\n%s", n, w.stderr.String())
	}
}

// waitForText waits until b holds text: the event itself, looked at until
// it comes, with a deadline far above what it takes.
func waitForText(t *testing.T, b *lockedBuffer, text string) {
	t.Helper()
	for deadline := time.Now().Add(failAfter); !strings.Contains(b.String(), text); {
		if time.Now().After(deadline) {
			t.Fatalf("no %q after %s:\n%s", text, failAfter, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// watchedGuardHome is a home whose config has one pre_tool_call hook,
// ~/.hermes/guard.sh: the home, the script's path (not written yet) and
// the path of a case file beside it.
func watchedGuardHome(t *testing.T) (home, script, cases string) {
	home = t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(hermesHome, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(hermesHome, "config.yaml"), "hooks:\n  pre_tool_call:\n    - command: \"~/.hermes/guard.sh\"\n", 0o644)
	return home, filepath.Join(hermesHome, "guard.sh"), filepath.Join(home, "cases.yaml")
}
