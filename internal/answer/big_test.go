package answer

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// bigRun runs a hook printing a block answer padded to about size bytes,
// with a display cap of 1000 bytes and a judging cap of maxAnswer, as the
// engine does at 1 MiB and 64 MiB.
func bigRun(t *testing.T, size, maxAnswer int) shell.Result {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "hook.sh")
	body := `#!/bin/sh
printf '{"action": "block", "message": "too big to ignore", "pad": "'
head -c ` + strconv.Itoa(size) + ` /dev/zero | tr '\0' x
printf '"}\n'
`
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	res := shell.Exec{}.Run(context.Background(), shell.Request{Argv: []string{path}, Timeout: time.Minute,
		MaxOutput: 1000, MaxAnswer: maxAnswer})
	t.Cleanup(res.Release)
	if !res.StdoutTruncated {
		t.Fatalf("stdout of %d bytes not past the 1000-byte cap", len(res.Stdout))
	}
	return res
}

// TestBigAnswerIsJudgedWhole: an answer past the display cap is parsed
// whole, as the agent parses it: the block holds.
func TestBigAnswerIsJudgedWhole(t *testing.T) {
	res := bigRun(t, 5000, 1<<20)
	for _, fc := range []bool{false, true} {
		ev := Evaluate(EvalInput{Event: EventPreToolCall, Command: "big", Blocking: true, FailClosed: fc, Result: res})
		if ev.Answer == nil || ev.Answer.Action != ActionBlock || ev.Answer.Message != "too big to ignore" || len(ev.Warnings) != 0 {
			t.Errorf("fail_closed=%v: %+v %q, want the hook's own block", fc, ev.Answer, ev.Warnings)
		}
	}
}

// TestCutAnswer: past the judging cap the answer is cut: a fail-closed
// hook blocks, any other contributes nothing, and both warn that it was
// cut.
func TestCutAnswer(t *testing.T) {
	res := bigRun(t, 5000, 3000)
	ev := Evaluate(EvalInput{Event: EventPreToolCall, Command: "big", Blocking: true, Result: res})
	if ev.Answer != nil || len(ev.Warnings) != 1 || !strings.Contains(ev.Warnings[0], "its answer was cut (stdout passed 3000 bytes") {
		t.Errorf("plain hook: %+v %q, want nothing and the cut warning", ev.Answer, ev.Warnings)
	}
	ev = Evaluate(EvalInput{Event: EventPreToolCall, Command: "big", Blocking: true, FailClosed: true, Result: res})
	if ev.Answer == nil || ev.Answer.Action != ActionBlock || !strings.Contains(ev.Answer.Message, "failed closed: unparseable stdout (its answer was cut") {
		t.Errorf("fail-closed hook: %+v, want its fail-closed block", ev.Answer)
	}
}

// TestUnspooledAnswerIsCut: when the whole stdout cannot be kept (no
// temporary directory), the answer is judged as cut, never on its first
// part alone.
func TestUnspooledAnswerIsCut(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	res := bigRun(t, 5000, 1<<20)
	ev := Evaluate(EvalInput{Event: EventPreToolCall, Command: "big", Blocking: true, FailClosed: true, Result: res})
	if ev.Answer == nil || !strings.Contains(ev.Answer.Message, "its answer was cut: stdout could not be kept whole for reading") {
		t.Errorf("fail-closed hook: %+v, want its fail-closed block", ev.Answer)
	}
	if len(ev.Warnings) != 1 || !strings.Contains(ev.Warnings[0], "judged unparseable") {
		t.Errorf("warnings %q", ev.Warnings)
	}
}

// TestBigNonObjectIsJudgedOnItsStart: stdout that does not start an object
// cannot be an answer however it goes on; it is judged on its first part,
// never read back (here the spool could not even be written).
func TestBigNonObjectIsJudgedOnItsStart(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	dir := t.TempDir()
	path := filepath.Join(dir, "flood.sh")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nhead -c 5000 /dev/zero | tr '\\0' a\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := shell.Exec{}.Run(context.Background(), shell.Request{Argv: []string{path}, Timeout: time.Minute, MaxOutput: 1000, MaxAnswer: 1 << 20})
	t.Cleanup(res.Release)
	ev := Evaluate(EvalInput{Event: EventPreToolCall, Command: "flood", Blocking: true, Result: res})
	if ev.Answer != nil || len(ev.Warnings) != 1 || !strings.Contains(ev.Warnings[0], "not valid JSON") {
		t.Errorf("%+v %q, want nothing and the not-JSON warning", ev.Answer, ev.Warnings)
	}
}
