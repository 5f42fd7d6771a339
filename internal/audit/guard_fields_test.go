package audit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// TestGuardLines: a line the guard writes (via exec) always carries refusal
// (null when it ran), its pid, status and answer; a run-event line leaves
// the guard's keys out; a signal is recorded only when there was one.
func TestGuardLines(t *testing.T) {
	home := t.TempDir()
	code := -9
	recs := []Record{
		{Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/g -- /x.sh", SHA256: "ab",
			Result: shell.Result{ExitCode: &code}, Via: ViaExec, PID: 42, Signal: 9, Status: StatusRan, AnswerKind: "none"},
		{Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/g -- /x.sh",
			Via: ViaExec, PID: 43, Status: StatusRefused, Refusal: "modified since approval", AnswerKind: "block"},
		{Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/x.sh", Via: ViaRunEvent},
	}
	for _, r := range recs {
		if err := Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got = append(got, m)
	}
	if v, ok := got[0]["refusal"]; !ok || v != nil || got[0]["signal"] != 9.0 || got[0]["pid"] != 42.0 || got[0]["status"] != "ran" || got[0]["answer"] != "none" || got[0]["via"] != "exec" {
		t.Errorf("ran line = %s", lines[0])
	}
	if got[1]["refusal"] != "modified since approval" || got[1]["status"] != "refused" || got[1]["exit_code"] != nil {
		t.Errorf("refused line = %s", lines[1])
	}
	if _, ok := got[1]["signal"]; ok {
		t.Errorf("a line without a signal has one: %s", lines[1])
	}
	for _, k := range []string{"refusal", "pid", "answer", "signal"} {
		if _, ok := got[2][k]; ok {
			t.Errorf("run-event line has %q: %s", k, lines[2])
		}
	}
	if got[2]["via"] != "run-event" {
		t.Errorf("run-event line = %s", lines[2])
	}
}
