package hooks

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks/outbound"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/record"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Engine runs hooks: a Setup plus what a run needs from the process.
type Engine struct {
	*Setup
	Runner  shell.Runner
	Environ []string // base environment handed to hooks
	Cwd     string   // sent as the payload's cwd
	Now     func() time.Time
	// Outbound delivers webhooks (nil: defaults).
	Outbound *outbound.Client
	// Record, when set and on, stores each firing's payload (SPEC §26).
	// Only run-event sets it: test, --cases and doctor never record.
	Record *record.Settings
}

// ShellRun is one shell hook of one firing: run, or skipped and why.
type ShellRun struct {
	Hook ShellHook
	// SkipReason: "" when the hook ran; else one of the Skip* values or a
	// refusal explaining itself (ShellHook.SkipReason).
	SkipReason string
	Result     shell.Result
	Eval       Evaluation
	// Interrupted: Ctrl-C or SIGTERM killed the hook while it ran.
	Interrupted bool
	// GuardRefusal: the hook is protected and its guard refused to run it,
	// for this reason (SPEC §17).
	GuardRefusal string
}

// Fired reports whether the hook ran.
func (r ShellRun) Fired() bool { return r.SkipReason == "" }

// Payload builds the fields-shape payload of a firing. With synthetic, the
// event's synthetic payload is the base and given fields win; else the given
// payload stands as it is (or the synthetic one when none is given).
func (e *Engine) Payload(ev catalog.Event, given *pyjson.Object, synthetic bool) *pyjson.Object {
	var fields *pyjson.Object
	if given != nil {
		given = catalog.NormalizeInput(given)
	}
	if given == nil || synthetic {
		base, err := ev.PayloadObject()
		if err != nil {
			base = pyjson.NewObject()
		}
		fields = catalog.MergeFields(base, given)
	} else {
		fields = given
	}
	return fields
}

// WireFor is the object a hook of event reads on stdin.
func (e *Engine) WireFor(event string, fields *pyjson.Object) *pyjson.Object {
	return catalog.Wire(event, fields, e.Cwd, e.Loc.Profile)
}

// ToolName is the payload's tool_name when it is a string.
func ToolName(fields *pyjson.Object) string {
	v, _ := fields.Get(catalog.FieldToolName)
	s, _ := v.(string)
	return s
}

// RunShell runs one shell hook with the wire payload on stdin and judges
// its answer.
func (e *Engine) RunShell(ctx context.Context, h ShellHook, wire *pyjson.Object) ShellRun {
	run := ShellRun{Hook: h}
	answerCtx := ctx
	switch {
	case h.ParseErr != nil:
		run.Result = shell.Result{Err: h.ParseErr.Error()}
	case h.Refusal != "":
		// Never run: the file run would not be the file hashed (§13.1).
		run.Result = shell.Result{Err: h.Refusal}
	case h.Unsafe != nil:
		// Nor a script someone else can change, whoever asks (§13.2).
		run.Result = shell.Result{Err: h.Reason()}
	default:
		tool, _ := wire.Get(catalog.WireToolNameKey)
		toolName, _ := tool.(string)
		sess, _ := wire.Get(catalog.WireSessionKey)
		sessionID, _ := sess.(string)
		// The answer is read within the hook's time: a hook cannot make
		// the firing last longer than its timeout (and the §5 grace) by
		// printing something slow to read.
		if h.Timeout > 0 {
			var cancel context.CancelFunc
			answerCtx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Duration(h.Timeout)*time.Second))
			defer cancel()
		}
		req := shell.Request{
			Argv:    h.Argv,
			Stdin:   catalog.WireBytes(wire),
			Env:     shell.HookEnv(e.Environ, e.Loc.Home, h.Event, toolName, sessionID),
			Timeout: time.Duration(h.Timeout) * time.Second,
			// The answer is judged whole, as the agent reads it (SPEC §29
			// item 10).
			MaxAnswer: shell.MaxAnswer,
		}
		if h.Guard != nil {
			// Through its guard, as the agent runs it; the guard leaves the
			// audit line to us and says why it refused.
			req.Argv, _ = shell.Argv(h.Command, e.UserHome)
			req.Env = append(req.Env, guard.NoAuditEnv+"=1")
		}
		run.Result = e.Runner.Run(ctx, req)
		if h.Guard != nil {
			run.Result.Stderr, run.GuardRefusal = guard.TakeRefusal(run.Result.Stderr)
		}
	}
	ev, _ := e.Catalogue.Lookup(h.Event)
	run.Eval = Evaluate(EvalInput{Event: h.Event, Command: h.Shown(), Blocking: ev.Blocking,
		FailClosed: h.FailClosed, Timeout: h.Timeout, Result: run.Result, Ctx: answerCtx})
	// The whole answer was read for judging; only the capped stdout stays.
	run.Result.Release()
	if run.Eval.TimedOut {
		run.Result.TimedOut = true
	}
	return run
}

// Selected are the hooks of event among hs, with --for-tool applied as the
// agent applies it: on a tool event only the hooks whose matcher matches
// forTool; on any other event it filters nothing (SPEC §14).
func (e *Engine) Selected(hs []ShellHook, event, forTool string) []ShellHook {
	ev, _ := e.Catalogue.Lookup(event)
	budget := hookspec.NewMatchBudget() // one firing's matchers (SPEC §13.2 rule 5)
	var out []ShellHook
	for _, h := range hs {
		if h.Event != event {
			continue
		}
		if forTool != "" && ev.Tool {
			if ok, _ := budget.Match(h.Matcher, forTool); !ok {
				continue
			}
		}
		out = append(out, h)
	}
	return out
}
