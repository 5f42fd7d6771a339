//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/proctest"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// guardBin is the real hermes-guard, built once for these tests.
var guardBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "guard-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	guardBin = filepath.Join(dir, "hermes-guard")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	// Built as make build builds it: static (no dynamic loader to start)
	// and without symbols.
	build := exec.Command(gobin, "build", "-trimpath", "-ldflags=-s -w", "-o", guardBin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err == nil {
		err = proctest.Land(guardBin) // as installed (make build)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "building hermes-guard: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runnerResult is what the agent's runner saw of one hook run.
type runnerResult struct {
	ReturnCode int             `json:"returncode"`
	Stdout     string          `json:"stdout"`
	Stderr     string          `json:"stderr"`
	TimedOut   bool            `json:"timed_out"`
	SpawnError *string         `json:"spawn_error"`
	Answer     json.RawMessage `json:"answer"`
}

// python3 returns a Python of at least 3.11 (process_group=0), else skips.
func python3(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found: the agent's runner cannot be run")
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.version_info >= (3, 11), sys.executable)").Output()
	ok, exe, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if err != nil || ok != "True" {
		t.Skip("python3 older than 3.11 (no process_group in subprocess)")
	}
	return exe
}

// lab is a HERMES_HOME with hook scripts, and the agent's runner.
type lab struct {
	t             *testing.T
	py, runner    string
	dir, home, hh string
	env           []string
}

func newLab(t *testing.T) *lab {
	py := python3(t)
	runner, err := filepath.Abs(filepath.Join("testdata", "agent_runner.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	hh := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(hh, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "HERMES_HOME=" + hh, "LC_ALL=C.UTF-8"}
	return &lab{t: t, py: py, runner: runner, dir: dir, home: home, hh: hh, env: env}
}

// script writes an executable hook script and returns its path.
func (l *lab) script(name, body string) string {
	l.t.Helper()
	p := filepath.Join(l.dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		l.t.Fatal(err)
	}
	return p
}

// protect approves the wrapped command of argv on event as protect does and
// returns the wrapped argv.
func (l *lab) protect(event string, failClosed bool, argv ...string) []string {
	l.t.Helper()
	wrapped := []string{guardBin, "--event", event}
	if failClosed {
		wrapped = append(wrapped, "--fail-closed")
	}
	wrapped = append(append(wrapped, "--"), argv...)
	script := argv[0]
	for _, a := range argv {
		if strings.HasSuffix(a, ".sh") {
			script = a
		}
	}
	e := allowlist.NewEntry(event, shell.Join(wrapped), allowlist.ViaProtect, allowlist.FingerprintNow(script), time.Now())
	if _, err := allowlist.Open(l.hh).Update(func(list *allowlist.List) error { list.Approve(e); return nil }); err != nil {
		l.t.Fatal(err)
	}
	return wrapped
}

// run runs argv with the agent's runner.
func (l *lab) run(event string, argv []string, payload string, timeout float64) runnerResult {
	l.t.Helper()
	return l.runAs(event, false, argv, payload, timeout)
}

// runAs runs argv with the agent's runner, the hook fail_closed or not.
func (l *lab) runAs(event string, failClosed bool, argv []string, payload string, timeout float64) runnerResult {
	l.t.Helper()
	req, _ := json.Marshal(map[string]any{"argv": argv, "payload": payload, "timeout": timeout, "event": event, "fail_closed": failClosed})
	cmd := exec.Command(l.py, l.runner)
	cmd.Env, cmd.Dir, cmd.Stdin = l.env, l.dir, bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("agent runner: %v\n%s", err, stderr.String())
	}
	var r runnerResult
	if err := json.Unmarshal(out, &r); err != nil {
		l.t.Fatalf("agent runner printed %q: %v", out, err)
	}
	return r
}

// auditLines is how many lines the audit log holds.
func (l *lab) auditLines() int {
	data, err := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	if err != nil {
		return 0
	}
	return bytes.Count(data, []byte("\n"))
}

// waitAuditLines waits until the audit log holds n lines (a witness writes
// after the agent's runner returned) and returns the last one.
func (l *lab) waitAuditLines(n int) string {
	l.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); l.auditLines() < n && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	data, _ := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return lines[len(lines)-1]
}

const payload = `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}}`

// TestAgentSeesTheSame is SPEC §17's proof: the agent's own runner gets the
// same returncode, stdout, stderr and evaluated answer from a protected hook
// as from the bare one.
func TestAgentSeesTheSame(t *testing.T) {
	l := newLab(t)
	cases := []struct {
		name, event, body, payload string
		timeout                    float64
	}{
		{"exit 0 with context", "pre_llm_call", "cat >/dev/null\necho '{\"context\": \"hello\"}'\n", payload, 10},
		{"exit 1 with a block", "pre_tool_call", "cat >/dev/null\necho '{\"action\": \"block\", \"message\": \"no\"}'\necho oops >&2\nexit 1\n", payload, 10},
		{"exit 2 blocks with stderr", "pre_tool_call", "cat >/dev/null\necho 'rm -rf is not allowed' >&2\nexit 2\n", payload, 10},
		{"exit 7", "pre_tool_call", "echo '{\"action\": \"modify\", \"args\": {\"command\": \"ls -l\"}}'\nexit 7\n", payload, 10},
		{"reads stdin back", "pre_tool_call", "cat\n", payload, 10},
		{"self-kill by SIGKILL", "pre_tool_call", "echo before\nkill -KILL $$\n", payload, 10},
		{"self-kill by SIGTERM", "pre_tool_call", "echo before >&2\nkill -TERM $$\n", payload, 10},
		{"self-kill by SIGQUIT", "pre_tool_call", "kill -QUIT $$\n", payload, 10},
		{"SIGTERM to the whole group", "pre_tool_call", "echo before\nkill -TERM 0\nsleep 5\n", payload, 10},
		{"SIGTERM to the group, trapped", "pre_tool_call", "trap 'echo caught; exit 0' TERM\nkill -TERM 0\nsleep 5 & wait\n", payload, 10},
		{"timeout", "pre_tool_call", "echo started\nsleep 30\n", payload, 1},
		{"1 MiB and more of stdout", "post_tool_call", "head -c 1100000 /dev/zero | tr '\\0' x\necho tail\n", payload, 20},
		{"non-UTF-8 output", "pre_llm_call", "printf '\\377\\376{\"context\": \"bin\\351\"}\\n'\nprintf '\\200err' >&2\n", payload, 10},
		{"ignores a large stdin", "pre_tool_call", "echo '{\"action\": \"approve\"}'\n", strings.Repeat("p", 512<<10), 10},
		{"background child holds stdout", "pre_llm_call", "cat >/dev/null\n(sleep 1; echo '{\"context\": \"late\"}') &\nexit 0\n", payload, 10},
		// Read by the shell itself: a child would catch it mid-fork, with
		// signals blocked for a moment.
		{"signal dispositions and mask", "pre_llm_call", "while read -r l; do case $l in SigIgn*|SigBlk*) echo \"$l\";; esac; done < /proc/$$/status\n", payload, 10},
		{"environment", "pre_llm_call", "env | grep -v '^_=' | sort\n", payload, 10},
	}
	// Recording on (SPEC §26) changes nothing the agent sees either: the
	// guard reads the payload first and hands it to the hook on a pipe.
	for _, recording := range []string{"0", "1"} {
		for i, tc := range cases {
			t.Run(tc.name+"/recording="+recording, func(t *testing.T) {
				l.t = t
				l.env = setEnv(l.env, "HERMES_HOOKS_RECORD", recording)
				script := l.script(fmt.Sprintf("hook%d.sh", i), tc.body)
				before := l.auditLines()
				bare := l.run(tc.event, []string{script}, tc.payload, tc.timeout)
				// Without --fail-closed: with it, the guard closes the
				// agent's gap on a signal death (TestFailClosedClosesTheGap).
				wrapped := l.protect(tc.event, false, script)
				guarded := l.run(tc.event, wrapped, tc.payload, tc.timeout)
				if bare.ReturnCode != guarded.ReturnCode {
					t.Errorf("returncode: bare %d, protected %d", bare.ReturnCode, guarded.ReturnCode)
				}
				if bare.Stdout != guarded.Stdout {
					t.Errorf("stdout: bare %q, protected %q", cut(bare.Stdout), cut(guarded.Stdout))
				}
				if bare.Stderr != guarded.Stderr {
					t.Errorf("stderr: bare %q, protected %q", cut(bare.Stderr), cut(guarded.Stderr))
				}
				if bare.TimedOut != guarded.TimedOut {
					t.Errorf("timed_out: bare %v, protected %v", bare.TimedOut, guarded.TimedOut)
				}
				if !bytes.Equal(bare.Answer, guarded.Answer) {
					t.Errorf("answer: bare %s, protected %s", bare.Answer, guarded.Answer)
				}
				if tc.name == "timeout" {
					// The agent's killpg takes the guard with the hook; the
					// guard's witness, outside the group, writes the line.
					last := l.waitAuditLines(before + 1)
					if !strings.Contains(last, `"timed_out":true`) || !strings.Contains(last, `"via":"exec"`) {
						t.Errorf("the timed-out run's line: %s", last)
					}
				}
				if got := l.auditLines() - before; got != 1 {
					t.Errorf("audit lines written: %d, want 1", got)
				}
				id := lineID(t, l.waitAuditLines(before+1))
				_, err := os.Stat(filepath.Join(l.hh, "logs", "payloads", id+".json"))
				switch {
				case recording == "0" && err == nil:
					t.Errorf("recording off, yet the payload of %s was stored", id)
				case recording == "1" && tc.name != "timeout" && err != nil:
					// (A timed-out run is killed with its guard: its payload
					// is stored while the hook runs, but nothing waits for it.)
					t.Errorf("recording on, the payload of %s: %v", id, err)
				}
			})
		}
	}
	l.env = setEnv(l.env, "HERMES_HOOKS_RECORD", "0")
	// The checks above compare; these say the cases test what they claim.
	l.t = t
	kill := l.run("pre_tool_call", []string{l.script("k.sh", "kill -KILL $$\n")}, payload, 10)
	if kill.ReturnCode != -int(syscall.SIGKILL) {
		t.Errorf("a self-kill by SIGKILL gave returncode %d", kill.ReturnCode)
	}
}

func cut(s string) string {
	if len(s) > 200 {
		return s[:200] + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return s
}

// TestAttacksNeverRun: a script that was modified, replaced (by a rename or
// in place), is owned by someone else, or was never approved never runs
// through the guard; a fail-closed pre_tool_call hook blocks, another exits
// 1 with nothing on stdout.
func TestAttacksNeverRun(t *testing.T) {
	l := newLab(t)
	ran := filepath.Join(l.dir, "ran")
	const good = "cat >/dev/null\nexit 0\n"
	evil := "touch " + ran + "\necho '{\"action\": \"approve\"}'\n"
	attacks := []struct {
		name   string
		root   bool
		attack func(script string)
	}{
		{"modified", false, func(p string) { appendFile(t, p, evil) }},
		{"replaced by a rename", false, func(p string) {
			tmp := p + ".new"
			if err := os.WriteFile(tmp, []byte("#!/bin/sh\n"+evil), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced in place", false, func(p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("#!/bin/sh\n" + evil)
			f.Close()
		}},
		{"owned by someone else", true, func(p string) {
			u, err := user.Lookup("nobody")
			if err != nil {
				t.Skip("no user nobody")
			}
			uid, _ := strconv.Atoi(u.Uid)
			if err := os.Chown(p, uid, -1); err != nil {
				t.Fatal(err)
			}
			appendFile(t, filepath.Join(l.dir, "unused"), "")
		}},
		{"never approved", false, nil},
	}
	for i, a := range attacks {
		for _, failClosed := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/fail-closed=%v", a.name, failClosed), func(t *testing.T) {
				l.t = t
				if a.root && os.Geteuid() != 0 {
					t.Skip("needs root to chown a script to another user")
				}
				os.Remove(ran)
				script := l.script(fmt.Sprintf("attack%d-%v.sh", i, failClosed), good)
				var wrapped []string
				if a.attack == nil {
					wrapped = []string{guardBin, "--event", "pre_tool_call"}
					if failClosed {
						wrapped = append(wrapped, "--fail-closed")
					}
					wrapped = append(wrapped, "--", script)
					appendFile(t, script, evil)
				} else {
					wrapped = l.protect("pre_tool_call", failClosed, script)
					a.attack(script)
				}
				before := l.auditLines()
				r := l.run("pre_tool_call", wrapped, payload, 10)
				if _, err := os.Stat(ran); err == nil {
					t.Fatal("the attacker's script ran through the guard")
				}
				wantCode, wantAnswer := 1, "null"
				if failClosed {
					wantCode, wantAnswer = 2, `{"action": "block", "message": "hook `+script+` refused by hermes: `
				}
				if r.ReturnCode != wantCode || !strings.HasPrefix(string(r.Answer), wantAnswer) {
					t.Errorf("returncode %d, answer %s; want %d, %s…", r.ReturnCode, r.Answer, wantCode, wantAnswer)
				}
				if !failClosed && r.Stdout != "" {
					t.Errorf("a refusal without --fail-closed printed %q on stdout", r.Stdout)
				}
				if !strings.HasPrefix(r.Stderr, "hermes-guard: refused hook "+script) || strings.Count(r.Stderr, "\n") != 1 {
					t.Errorf("stderr = %q, want one line naming the hook", r.Stderr)
				}
				if got := l.auditLines() - before; got != 1 {
					t.Errorf("audit lines written: %d, want 1", got)
				}
			})
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(text)
	f.Close()
}
