package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The helpers of the stress suite (stress_test.go): a home per test with
// the real binary, hook scripts, and readers of the allowlist and pid files.

var stressFull = os.Getenv("HERMES_STRESS") == "full"

func stressSize(full, reduced int) int {
	if stressFull {
		return full
	}
	return reduced
}

// buildHermes gives the test the real binary, in its temporary folder:
// the test binary is not what a user runs, and its RSS would not be
// hermes's. It is built once for the whole test binary (builtOnce).
func buildHermes(t testing.TB) string {
	t.Helper()
	return hermesBuild.linkInto(t, t.TempDir())
}

// needAgentPython skips the test unless python3 can be the agent's runner
// (subprocess.Popen with process_group needs 3.11).
func needAgentPython(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the agent's runner needs python3")
	}
	if out, err := exec.Command("python3", "-c", "import sys; assert sys.version_info >= (3, 11)").CombinedOutput(); err != nil {
		t.Skipf("the agent's runner needs python3 >= 3.11 (process_group): %s", out)
	}
}

// stressHome is one HOME / HERMES_HOME with the binary that runs against it.
type stressHome struct {
	t    *testing.T
	bin  string
	root string            // HOME; the hook scripts live in root/hooks
	home string            // HERMES_HOME
	sums map[string]string // command → sha256 of its script
}

func newStressHome(t *testing.T, bin string) *stressHome {
	root := t.TempDir()
	h := &stressHome{t: t, bin: bin, root: root, home: filepath.Join(root, ".hermes"), sums: map[string]string{}}
	for _, dir := range []string{h.home, filepath.Join(root, "hooks")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *stressHome) allowlistPath() string {
	return filepath.Join(h.home, "shell-hooks-allowlist.json")
}

// command is hermes with args in this home, with none of the caller's
// HERMES_* settings leaking in.
func (h *stressHome) command(args ...string) *exec.Cmd {
	cmd := exec.Command(h.bin, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "HERMES_") && !strings.HasPrefix(kv, "HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+h.root, "HERMES_HOME="+h.home, "NO_COLOR=1")
	cmd.Dir = h.root
	return cmd
}

type runResult struct {
	stdout, stderr bytes.Buffer
	code           int
	maxRSSKiB      int64
	elapsed        time.Duration
}

// run runs hermes to the end; a non-zero exit is reported, not fatal.
func (h *stressHome) run(args ...string) *runResult {
	h.t.Helper()
	r := &runResult{}
	cmd := h.command(args...)
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	start := time.Now()
	err := cmd.Run()
	r.elapsed = time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		h.t.Fatalf("hermes %q: %v", args, err)
	}
	r.code = cmd.ProcessState.ExitCode()
	// Linux: KiB, and the maximum over hermes and the children it reaped
	// (the hook), so an upper bound on hermes's own peak.
	r.maxRSSKiB = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	return r
}

// rssWrapper runs argv and writes on descriptor 3 the peak RSS (KiB) of
// what it ran: the figure of hermes and its hooks alone.
const rssWrapper = `import os, resource, subprocess, sys
r = subprocess.run(sys.argv[1:])
os.write(3, str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss).encode())
sys.exit(r.returncode if r.returncode >= 0 else 128 - r.returncode)
`

// runMeasured is run with a peak RSS that is hermes's own. Linux starts
// an exec'd child's ru_maxrss at its parent's high-water mark (the child
// shares the parent's memory until exec), so once another test of this
// binary built a large input (a 24 MiB payload), every child directly
// started from here reports at least that. Started from a small Python,
// hermes reports its own; without python3, run's figure is kept.
func (h *stressHome) runMeasured(args ...string) *runResult {
	h.t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return h.run(args...)
	}
	r := &runResult{}
	cmd := h.command(args...)
	cmd.Args = append([]string{py, "-c", rssWrapper, h.bin}, args...)
	cmd.Path = py
	pr, pw, err := os.Pipe()
	if err != nil {
		h.t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{pw}
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		h.t.Fatal(err)
	}
	rss, _ := io.ReadAll(pr)
	pr.Close()
	err = cmd.Wait()
	r.elapsed = time.Since(start)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		h.t.Fatalf("hermes %q: %v", args, err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if r.maxRSSKiB, err = strconv.ParseInt(strings.TrimSpace(string(rss)), 10, 64); err != nil {
		h.t.Fatalf("hermes %q: no peak RSS from the wrapper (%q): %s", args, rss, &r.stderr)
	}
	return r
}

// writeScript writes an executable hook script under root/hooks and
// returns its path.
func (h *stressHome) writeScript(name, body string) string {
	path := filepath.Join(h.root, "hooks", name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		h.t.Fatal(err)
	}
	return path
}

// writeHooks writes n distinct scripts (name-00.sh …) and returns their
// commands, remembering each script's sha256.
func (h *stressHome) writeHooks(name string, n int) []string {
	cmds := make([]string, n)
	for i := range n {
		body := fmt.Sprintf("# %s %d\nexit 0\n", name, i)
		cmds[i] = h.writeScript(fmt.Sprintf("%s-%03d.sh", name, i), body)
		sum := sha256.Sum256([]byte("#!/bin/sh\n" + body))
		h.sums[cmds[i]] = hex.EncodeToString(sum[:])
	}
	return cmds
}

// writeConfig writes config.yaml with cmds under event (timeout 0: the
// default).
func (h *stressHome) writeConfig(event string, timeout int, cmds ...string) {
	var b strings.Builder
	fmt.Fprintf(&b, "hooks:\n  %s:\n", event)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    - command: %s\n", strconv.Quote(c))
		if timeout > 0 {
			fmt.Fprintf(&b, "      timeout: %d\n", timeout)
		}
	}
	if err := os.WriteFile(filepath.Join(h.home, "config.yaml"), []byte(b.String()), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

type hookKey struct{ event, command string }

// allowlist is the allowlist file as another reader (the agent) sees it.
type allowlist struct {
	top       map[string]json.RawMessage
	approvals []map[string]any
}

// readAllowlist fails the test unless the allowlist is one complete JSON
// object with an approvals list, mode 0600, written the way §8.1 says.
func (h *stressHome) readAllowlist() allowlist {
	h.t.Helper()
	data, err := os.ReadFile(h.allowlistPath())
	if err != nil {
		h.t.Fatalf("read the allowlist: %v", err)
	}
	var a allowlist
	if err := json.Unmarshal(data, &a.top); err != nil {
		h.t.Fatalf("the allowlist is not a JSON object (%v):\n%.2000s", err, data)
	}
	if err := json.Unmarshal(a.top["approvals"], &a.approvals); err != nil {
		h.t.Fatalf("approvals is not a list of objects: %v", err)
	}
	if !bytes.HasSuffix(data, []byte("}")) {
		h.t.Errorf("the allowlist does not end with its closing brace: %q", data[max(0, len(data)-20):])
	}
	if fi, err := os.Stat(h.allowlistPath()); err == nil && fi.Mode().Perm() != 0o600 {
		h.t.Errorf("allowlist mode %v, want 0600", fi.Mode().Perm())
	}
	return a
}

// keys returns the (event, command) pairs of the approvals and fails on a
// duplicate (approving replaces, so a pair appears at most once).
func (h *stressHome) keys(a allowlist) map[hookKey]map[string]any {
	h.t.Helper()
	out := map[hookKey]map[string]any{}
	for _, e := range a.approvals {
		ev, _ := e["event"].(string)
		cmd, _ := e["command"].(string)
		k := hookKey{ev, cmd}
		if _, dup := out[k]; dup {
			h.t.Errorf("duplicate approval for %v", k)
		}
		out[k] = e
	}
	return out
}

// checkApproved fails unless every approval we made records our script's
// sha256, and its snapshot exists with exactly those bytes (the snapshot is
// written before the allowlist, so a recorded approval always has one).
func (h *stressHome) checkApproved(e map[string]any) {
	h.t.Helper()
	cmd, _ := e["command"].(string)
	want, ours := h.sums[cmd]
	if !ours {
		return
	}
	got, _ := e["script_sha256_at_approval"].(string)
	if got != want || e["approved_via"] != "accept" {
		h.t.Errorf("approval of %s: sha256 %q via %v, want %q via accept", cmd, got, e["approved_via"], want)
		return
	}
	snap, err := os.ReadFile(filepath.Join(h.home, "shell-hooks-snapshots", want))
	if sum := sha256.Sum256(snap); err != nil || hex.EncodeToString(sum[:]) != want {
		h.t.Errorf("snapshot of %s (%s): %v, or it does not hold the script", cmd, want, err)
	}
}

// checkKeys reads the allowlist and fails the test unless it holds every
// approval of must and none outside may, each of ours with its sha256 and
// snapshot (checkApproved). It returns the approvals by key.
func (h *stressHome) checkKeys(when string, must, may map[hookKey]bool) map[hookKey]map[string]any {
	h.t.Helper()
	got := h.keys(h.readAllowlist())
	for k := range must {
		if got[k] == nil {
			h.t.Errorf("%s: approval lost: %v", when, k)
		}
	}
	for k, e := range got {
		if !may[k] {
			h.t.Errorf("%s: approval nobody asked for: %v", when, k)
		}
		h.checkApproved(e)
	}
	return got
}

// tempFiles lists what an interrupted atomic write leaves behind in
// HERMES_HOME and the snapshot folder.
func (h *stressHome) tempFiles() []string {
	var out []string
	_ = filepath.WalkDir(h.home, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			out = append(out, strings.TrimPrefix(path, h.home+"/"))
		}
		return nil
	})
	return out
}

func (h *stressHome) resetAllowlist(seed string) {
	h.t.Helper()
	for _, p := range []string{h.allowlistPath(), filepath.Join(h.home, "shell-hooks-snapshots")} {
		if err := os.RemoveAll(p); err != nil {
			h.t.Fatal(err)
		}
	}
	if seed != "" {
		if err := os.WriteFile(h.allowlistPath(), []byte(seed), 0o600); err != nil {
			h.t.Fatal(err)
		}
	}
}

// startAll starts every invocation before waiting for any, so they contend
// for the allowlist lock, then waits for all of them.
func (h *stressHome) startAll(invocations [][]string) []*runResult {
	h.t.Helper()
	cmds := make([]*exec.Cmd, len(invocations))
	results := make([]*runResult, len(invocations))
	for i, args := range invocations {
		results[i] = &runResult{}
		cmds[i] = h.command(args...)
		cmds[i].Stdout, cmds[i].Stderr = &results[i].stdout, &results[i].stderr
		if err := cmds[i].Start(); err != nil {
			h.t.Fatalf("start hermes %q: %v", args, err)
		}
	}
	for i, cmd := range cmds {
		_ = cmd.Wait()
		results[i].code = cmd.ProcessState.ExitCode()
	}
	return results
}

func acceptArgs(cmd string) []string {
	return []string{"hooks", "accept", cmd, "--event", "pre_tool_call", "--yes"}
}

// agentSeed is an allowlist as the Python agent writes it, with keys this
// tool does not know, which must survive every concurrent rewrite.
func agentSeed(cmds []string) string {
	entries := []string{`{"approved_at": "2026-01-02T03:04:05Z", "command": "/opt/other.sh", "event": "on_session_start", "x_note": "kept"}`}
	for _, c := range cmds {
		entries = append(entries, fmt.Sprintf(`{"approved_at": "2026-01-02T03:04:05Z", "command": %q, "event": "pre_tool_call", "script_mtime_at_approval": null}`, c))
	}
	return `{"x_future": {"a": 1}, "approvals": [` + strings.Join(entries, ", ") + `]}`
}

// readPid reads a pid file a hook writes with `echo $$ > file`; ok is false
// while it is missing or not completely written.
func readPid(path string) (pid int, ok bool) {
	data, err := os.ReadFile(path)
	if err != nil || !bytes.HasSuffix(data, []byte("\n")) {
		return 0, false
	}
	pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
	return pid, err == nil && pid > 0
}

// killGroupOnCleanup makes sure a failing test leaves nothing it started.
func killGroupOnCleanup(t *testing.T, pgid int) {
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
}
