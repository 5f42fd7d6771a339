package hooks

import (
	"context"

	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// RunRequest runs req for h, the argv, environment and timeout a caller
// made for it (a fault of doctor --chaos), and judges the answer as
// RunShell does, which is as the agent judges it (SPEC §7). No trust
// decision is made and no audit line written: the caller runs what the
// agent would run, in a reduced environment of its own.
func (e *Engine) RunRequest(ctx context.Context, h ShellHook, req shell.Request) ShellRun {
	run := ShellRun{Hook: h}
	if req.MaxAnswer == 0 {
		req.MaxAnswer = shell.MaxAnswer
	}
	run.Result = e.Runner.Run(ctx, req)
	if h.Guard != nil {
		run.Result.Stderr, run.GuardRefusal = guard.TakeRefusal(run.Result.Stderr)
	}
	ev, _ := e.Catalogue.Lookup(h.Event)
	run.Eval = Evaluate(EvalInput{Event: h.Event, Command: h.Shown(), Blocking: ev.Blocking,
		FailClosed: h.FailClosed, Timeout: h.Timeout, Result: run.Result})
	// The whole answer was read for judging; only the capped stdout stays.
	run.Result.Release()
	return run
}
