//go:build linux

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes/internal/record"
)

// setEnv is env with name set to value (added or replaced).
func setEnv(env []string, name, value string) []string {
	out := []string{}
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// lineID is the id of an audit line, which every line carries (SPEC §26).
func lineID(t *testing.T, line string) string {
	t.Helper()
	var l struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(line), &l); err != nil || !record.ValidID(l.ID) {
		t.Fatalf("audit line without an id: %s", line)
	}
	return l.ID
}

// TestGuardRecords: with hooks_record: true in the config, a run of the
// agent through the guard stores the payload the agent sent, redacted, as
// the file named by the audit line's id (0600); HERMES_HOOKS_RECORD=0
// wins over the config; a firing of hermes's own (run-event, test,
// --cases, doctor: HERMES_GUARD_NO_AUDIT) records nothing.
func TestGuardRecords(t *testing.T) {
	l := newLab(t)
	if err := os.WriteFile(filepath.Join(l.hh, "config.yaml"), []byte("model: x\nhooks_record: true # SPEC §26\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l.env = append(l.env, "GITHUB_TOKEN=ghp_planted_secret_1")
	wrapped := l.protect("pre_tool_call", true, l.script("echo.sh", "cat\n"))
	sent := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "git push https://x:ghp_planted_secret_1@github.com/o/r"}, "session_id": "s", "cwd": "/w", "profile": "", "extra": {"headers": {"Authorization": "Bearer abc"}}}`
	r := l.run("pre_tool_call", wrapped, sent, 10)
	if r.Stdout != sent || r.ReturnCode != 0 {
		t.Fatalf("the hook did not get the payload as sent: returncode %d, stdout %q", r.ReturnCode, r.Stdout)
	}
	id := lineID(t, l.waitAuditLines(1))
	path := filepath.Join(l.hh, "logs", "payloads", id+".json")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(strings.ReplaceAll(sent, "ghp_planted_secret_1", "***"), `"Bearer abc"`, `"***"`)
	if string(got) != want {
		t.Errorf("stored payload:\n got %s\nwant %s", got, want)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("payload file mode %v, want 0600", fi.Mode().Perm())
	}

	count := func() int {
		files, _ := filepath.Glob(filepath.Join(l.hh, "logs", "payloads", "*.json"))
		return len(files)
	}
	l.env = setEnv(l.env, "HERMES_HOOKS_RECORD", "0")
	l.run("pre_tool_call", wrapped, sent, 10)
	l.env = setEnv(l.env, "HERMES_HOOKS_RECORD", "")
	l.env = setEnv(l.env, "HERMES_GUARD_NO_AUDIT", "1")
	l.run("pre_tool_call", wrapped, sent, 10)
	if n := count(); n != 1 {
		t.Errorf("%d payload files after a run with HERMES_HOOKS_RECORD=0 and one fired by hermes, want 1", n)
	}
	l.env = setEnv(l.env, "HERMES_GUARD_NO_AUDIT", "")

	// A refusal is recorded too: its firing blocked (fail-closed).
	os.WriteFile(filepath.Join(l.dir, "echo.sh"), []byte("#!/bin/sh\necho changed\n"), 0o755)
	r = l.run("pre_tool_call", wrapped, sent, 10)
	if !strings.Contains(r.Stdout, "refused by hermes") {
		t.Fatalf("a modified script was not refused: %q", r.Stdout)
	}
	id = lineID(t, l.waitAuditLines(3))
	if _, err := os.Stat(filepath.Join(l.hh, "logs", "payloads", id+".json")); err != nil {
		t.Errorf("the refused firing's payload: %v", err)
	}
}

// TestRecordingBoundUnderParallelGuards: 16 guards of the agent at once,
// each recording, never take the store past hooks_record_max.
func TestRecordingBoundUnderParallelGuards(t *testing.T) {
	l := newLab(t)
	const max = 32 << 10
	os.WriteFile(filepath.Join(l.hh, "config.yaml"), []byte(fmt.Sprintf("hooks_record: yes\nhooks_record_max: %d\n", max)), 0o600)
	wrapped := l.protect("pre_tool_call", false, l.script("quiet.sh", "cat >/dev/null\n"))
	pad := strings.Repeat("p", 1500)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var stderr strings.Builder
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 6; i++ {
				r := l.run("pre_tool_call", wrapped, fmt.Sprintf(`{"tool_name": "terminal", "tool_input": {"command": "echo %d %d %s"}}`, w, i, pad), 10)
				mu.Lock()
				stderr.WriteString(r.Stderr)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	st := record.Open(l.hh, max)
	files, total, err := st.Usage()
	if err != nil {
		t.Fatal(err)
	}
	if total > max || files == 0 {
		t.Errorf("the store holds %d bytes in %d files; bound %d", total, files, max)
	}
	if n := l.auditLines(); n != 96 {
		t.Errorf("%d audit lines, want 96", n)
	}
	if stderr.Len() > 0 {
		t.Errorf("the guards warned: %s", stderr.String())
	}
}
