package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/record"
)

// TestStressFromLog measures `cases from-log` over many recorded firings
// (100,000 under make stress, 500 here): the time it takes and its peak
// memory (the child's maximum RSS), logged for docs/performance.md. The
// firings are written as the guard writes them: one audit line and one
// payload file each; 1 in 20 calls is new, the rest repeat earlier ones.
func TestStressFromLog(t *testing.T) {
	n := stressSize(100000, 500)
	bin := buildHermes(t)
	h := newStressHome(t, bin)
	logs := filepath.Join(h.home, "logs")
	payloads := record.Dir(h.home)
	if err := os.MkdirAll(payloads, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(logs, "hooks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	distinct := n / 20
	for i := 0; i < n; i++ {
		id := record.NewID()
		c := i % distinct
		blocked := c%10 == 0
		parsed := "null"
		if blocked {
			parsed = `{"action":"block","message":"guard.sh: no"}`
		}
		fmt.Fprintf(w, `{"time":%q,"event":"pre_tool_call","kind":"shell","command":"/g --event pre_tool_call -- /h/guard.sh","sha256":null,"status":"ran","exit_code":0,"timed_out":false,"error":null,"elapsed_seconds":0.01,"parsed":%s,"via":"exec","pid":%d,"refusal":null,"answer":"none","id":%q}`+"\n",
			start.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano), parsed, 1000+i, id)
		payload := fmt.Sprintf(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "make target-%d --jobs 4 %s"}, "session_id": "s", "cwd": "/work/project", "profile": "", "extra": {"task_id": "t", "tool_call_id": "call_%d"}}`,
			c, strings.Repeat("x", 200), i)
		if err := os.WriteFile(filepath.Join(payloads, id+".json"), []byte(payload), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out := filepath.Join(h.root, "traffic.yaml")
	cmd := h.command("hooks", "cases", "from-log", "--output", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	began := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("from-log: %v\n%s", err, &stderr)
	}
	took := time.Since(began)
	maxRSS := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(data, []byte("\n- name: ")); got != distinct {
		t.Errorf("%d cases, want %d (one per distinct call)", got, distinct)
	}
	if !strings.Contains(string(data), fmt.Sprintf("from %d recorded firing(s)", n)) {
		t.Errorf("the first comment does not count %d firings: %.300s", n, data)
	}
	t.Logf("from-log over %d recorded firings (%d distinct): %v, peak RSS %.1f MiB, case file %.1f MiB",
		n, distinct, took.Round(time.Millisecond), float64(maxRSS)/1024, float64(len(data))/(1<<20))
}
