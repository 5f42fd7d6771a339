//go:build linux

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/textsafe"
)

// SPEC §29 item 4: with hooks.jsonl.lock held by someone else, the agent's
// runner still gets the hook's block (before its timeout, which the guard
// would have exceeded waiting 10 s for the lock), with its pipes closed
// (communicate returned); the line is written, once, after the lock is
// let go.
func TestHeldAuditLockNeverDelaysTheAnswer(t *testing.T) {
	l := newLab(t)
	script := l.script("blocks.sh", "cat >/dev/null\necho '{\"action\": \"block\", \"message\": \"no\"}'\n")
	wrapped := l.protect("pre_tool_call", true, script)
	if err := os.MkdirAll(filepath.Join(l.hh, "logs"), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(audit.LockPath(l.hh), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	r := l.run("pre_tool_call", wrapped, payload, 5)
	if r.TimedOut || r.ReturnCode != 0 || !strings.Contains(string(r.Answer), `"block"`) {
		t.Fatalf("with the audit lock held the agent got: returncode %d, timed out %v, answer %s", r.ReturnCode, r.TimedOut, r.Answer)
	}
	if n := l.auditLines(); n != 0 {
		t.Fatalf("%d audit line(s) written while the lock was held", n)
	}
	syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	last := l.waitAuditLines(1)
	var line struct {
		ID, Command, Answer string
	}
	if err := json.Unmarshal([]byte(last), &line); err != nil || line.Command != script || line.Answer != "block" || len(line.ID) != 32 {
		t.Errorf("the line written after the lock was let go: %s (%v)", last, err)
	}
	// One line for the run.
	if n := l.auditLines(); n != 1 {
		t.Errorf("%d lines, want 1", n)
	}
}

// SPEC §24 item 4 and 6: a secret of the environment expanded into a
// protected hook's command is shown as ${NAME} in the guard's stderr, its
// block message and its audit line; the line names the guarded command,
// the wrapped one in "wrapped"; the stderr line is escaped and its hint
// shell-quoted.
func TestGuardHidesSecretsAndEscapes(t *testing.T) {
	l := newLab(t)
	const secret = "sk-live-0123456789"
	l.env = append(l.env, "API_TOKEN="+secret)
	script := l.script(`odd\nname.sh`, "cat >/dev/null\n")
	wrapped := l.protect("pre_tool_call", true, script, "--token", secret)
	appendFile(t, script, "echo changed\n") // refused: modified
	r := l.run("pre_tool_call", wrapped, payload, 10)
	if r.ReturnCode != 2 {
		t.Fatalf("returncode %d, want the fail-closed block", r.ReturnCode)
	}
	data, _ := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	for what, s := range map[string]string{"stderr": r.Stderr, "answer": string(r.Answer), "audit line": string(data)} {
		if strings.Contains(s, secret) {
			t.Errorf("the %s holds the secret: %s", what, s)
		}
		if !strings.Contains(s, "${API_TOKEN}") {
			t.Errorf("the %s does not name the secret: %s", what, s)
		}
	}
	if !strings.Contains(r.Stderr, `odd\\nname.sh`) {
		t.Errorf("stderr does not show the backslash doubled: %q", r.Stderr)
	}
	inner := shell.Quote(script) + " --token ${API_TOKEN}"
	if !strings.Contains(r.Stderr, "hermes hooks accept "+textsafe.ShellQuote(inner)) || !strings.Contains(r.Stderr, "modified") {
		t.Errorf("stderr's hint is not the command quoted for pasting: %q", r.Stderr)
	}
	var line struct{ Command, Wrapped string }
	json.Unmarshal(data, &line)
	if line.Command != inner || !strings.HasPrefix(line.Wrapped, guardBin+" --event pre_tool_call --fail-closed -- ") {
		t.Errorf("audit command %q, wrapped %q", line.Command, line.Wrapped)
	}
}

// SPEC §29 item 10: a block answer of more than the 1 MiB the guard keeps
// in memory is blocked by the agent, and the guard's audit line says block
// too (it judges all of stdout, spooled, as the agent does).
func TestGuardAuditJudgesAWholeBigAnswer(t *testing.T) {
	l := newLab(t)
	// 3 MiB of padding inside the block object: its end, the "}", is far
	// past the first MiB.
	big := l.script("big.sh", `cat >/dev/null
printf '{"action": "block", "message": "too big to ignore", "pad": "'
head -c 3145728 /dev/zero | tr '\0' x
printf '"}\n'
`)
	wrapped := l.protect("pre_tool_call", false, big)
	r := l.run("pre_tool_call", wrapped, payload, 30)
	if r.ReturnCode != 0 || !strings.Contains(string(r.Answer), `"block"`) {
		t.Fatalf("the agent got returncode %d, answer %.200s; want its block", r.ReturnCode, r.Answer)
	}
	var line struct {
		Answer string
		Parsed map[string]any
	}
	if err := json.Unmarshal([]byte(l.waitAuditLines(1)), &line); err != nil {
		t.Fatal(err)
	}
	if line.Answer != "block" || line.Parsed["message"] != "too big to ignore" {
		t.Errorf("the audit line judged the 3 MiB block as %q, parsed %.200v", line.Answer, line.Parsed)
	}
	// No spool is left behind (it is unlinked at once).
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "hermes-answer-*"))
	if len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}
}
