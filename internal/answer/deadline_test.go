package answer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// bigAnswer is a block answer padded with n numbers: what a hook that
// wants to stall its reader prints.
func bigAnswer(n int) string {
	return `{"decision": "block", "reason": "read in time", "pad": [` + strings.TrimSuffix(strings.Repeat("1.5e3,", n), ",") + `]}`
}

// TestEvaluateAnswerReadCountsAgainstTimeout: reading the answer is part of
// the hook's time (SPEC §22). Past the deadline the hook is judged as timed
// out: a fail-closed guard blocks, an ordinary hook contributes nothing;
// an interrupt while reading contributes nothing either, and in time the
// same answer reads normally.
func TestEvaluateAnswerReadCountsAgainstTimeout(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	interrupted, stop := context.WithCancel(context.Background())
	stop()
	out := bigAnswer(100_000)
	base := EvalInput{Event: "pre_tool_call", Command: "./guard.sh", Blocking: true, Timeout: 5,
		Result: exited(0, out)}

	in := base
	in.FailClosed, in.Ctx = true, expired
	ev := Evaluate(in)
	if !ev.TimedOut || ev.Answer == nil || ev.Answer.Action != ActionBlock ||
		ev.Answer.Message != "hook ./guard.sh failed closed: timed out after 5s (while its answer was read)" {
		t.Fatalf("fail-closed past its deadline: timed out %v, answer %s", ev.TimedOut, wire(ev.Answer))
	}
	if len(ev.Warnings) != 1 || !strings.Contains(ev.Warnings[0], "ran out while its answer") {
		t.Errorf("warnings %q", ev.Warnings)
	}

	in = base
	in.Ctx = expired
	if ev := Evaluate(in); !ev.TimedOut || ev.Answer != nil {
		t.Errorf("past its deadline: timed out %v, answer %s; want a timeout that contributes nothing (not its block)", ev.TimedOut, wire(ev.Answer))
	}

	in = base
	in.Ctx = interrupted
	if ev := Evaluate(in); ev.TimedOut || ev.Answer != nil || len(ev.Warnings) != 0 {
		t.Errorf("interrupted: timed out %v, answer %s, warnings %q", ev.TimedOut, wire(ev.Answer), ev.Warnings)
	}

	in = base
	in.Ctx = context.Background()
	if ev := Evaluate(in); ev.TimedOut || ev.Answer == nil || ev.Answer.Message != "read in time" {
		t.Errorf("in time: timed out %v, answer %s; want its block", ev.TimedOut, wire(ev.Answer))
	}

	// Exit 2 past the deadline still blocks, quoting stderr.
	in = base
	in.Ctx, in.Result = expired, withStderr(exited(2, `{"decision": "block", "reason": "r", "pad": [`+strings.Repeat("1,", 5000)+`1]}`), "from stderr")
	if ev := Evaluate(in); ev.Answer == nil || ev.Answer.Message != "from stderr" {
		t.Errorf("exit 2 past the deadline: %s, want the stderr block", wire(ev.Answer))
	}
}

func withStderr(r shell.Result, stderr string) shell.Result {
	r.Stderr = stderr
	return r
}

// wire is the answer's wire shape as text, "null" for nothing.
func wire(a *Answer) string { return string(pyjson.Marshal(a.Wire(), pyjson.Options{})) }
