package hooks

import (
	"context"
	"slices"
	"time"

	"github.com/hermes-hooks/hermes/internal/hooks/outbound"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Consent decides, for a hook that is not trusted, whether it may fire now
// and how that approval is to be recorded (an allowlist.Via* value). It is
// the CLI's part: flags, environment, config, or a prompt.
type Consent func(h ShellHook) (ok bool, via string, err error)

// Dispatch is one real firing of an event (run-event).
type Dispatch struct {
	Event    string
	Fields   *pyjson.Object
	Wire     *pyjson.Object
	Runs     []ShellRun
	Outcome  *Outcome
	Warnings []string
}

// Blocked reports whether the outcome blocks the tool call.
func (d *Dispatch) Blocked() bool { return IsBlock(d.Outcome) }

// DispatchShell fires a shell event as the agent would: every configured
// hook in config order, matcher first, then consent (approved and not
// blocked by pinning, or approved now through consent), run, evaluate; then
// aggregate. With safeMode nothing runs. Approvals given through consent are
// recorded before the hook runs. An error from consent (Ctrl-C at a prompt)
// or from recording an approval stops the dispatch.
func (e *Engine) DispatchShell(ctx context.Context, event string, fields *pyjson.Object, safeMode bool, consent Consent) (*Dispatch, error) {
	ev, _ := e.Catalogue.Lookup(event)
	d := &Dispatch{Event: event, Fields: fields, Wire: e.WireFor(event, fields)}
	list, warnings, err := e.Store.Read()
	if err != nil {
		return nil, err
	}
	d.Warnings = append(d.Warnings, warnings...)
	toolName := ToolName(fields)
	var answers []*Answer
	for _, spec := range e.Parsed.ForEvent(event) {
		h := e.Inspect(spec, list)
		run := ShellRun{Hook: h}
		switch {
		case safeMode:
			run.SkipReason = SkipSafeMode
		case ev.Tool && !h.Matcher.Match(toolName):
			run.SkipReason = SkipMatcher
		case !h.Trusted():
			ok, via, err := consent(h)
			if err != nil {
				return nil, err
			}
			if !ok {
				run.SkipReason = SkipNotApproved
				if h.Blocked() {
					run.SkipReason = SkipModified
				}
				break
			}
			_, warnings, err := e.Approve([]ShellHook{h}, via, e.Now())
			d.Warnings = append(d.Warnings, warnings...)
			if err != nil {
				return nil, err
			}
		}
		if run.SkipReason == "" {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			run = e.RunShell(ctx, h, d.Wire)
			if err := ctx.Err(); err != nil {
				// Interrupted: the hook's group was killed; stop here.
				return nil, err
			}
			e.audit(d, run)
			answers = append(answers, run.Eval.Answer)
		}
		d.Runs = append(d.Runs, run)
	}
	args, _ := fields.Get(fieldArgs)
	argsObj, _ := args.(*pyjson.Object)
	d.Outcome = Aggregate(event, argsObj, answers)
	return d, nil
}

// audit appends the run to the audit log unless the config turned it off;
// a failure to log is a warning, never a reason to stop the agent's work.
func (e *Engine) audit(d *Dispatch, run ShellRun) {
	if !e.Config.Settings.AuditLog {
		return
	}
	sha := ""
	if run.Hook.Script != "" {
		sha = e.Fingerprints.Of(run.Hook.Script).SHA256
	}
	rec := AuditRecord{Time: e.Now(), Event: d.Event, Kind: "shell", Command: run.Hook.Shown(), SHA256: sha,
		Result: run.Result, Answer: run.Eval.Answer}
	if err := AppendAudit(e.Loc.Home, rec); err != nil {
		d.Warnings = append(d.Warnings, err.Error())
	}
}

// Webhooks are the outbound webhooks subscribed to a firing: the event is
// among theirs and, on tool events, their matcher matches the tool.
func (e *Engine) Webhooks(event string, fields *pyjson.Object) []outbound.Target {
	ev, _ := e.Catalogue.Lookup(event)
	var out []outbound.Target
	for _, w := range e.Parsed.Webhooks {
		if !slices.Contains(w.Events, event) || ev.Tool && !w.Matcher.Match(ToolName(fields)) {
			continue
		}
		out = append(out, outbound.Target{Name: w.Name, URL: w.URL, Secret: w.Secret,
			Timeout: time.Duration(w.Timeout) * time.Second})
	}
	return out
}

// DeliverWebhooks posts the firing's payload to every subscribed webhook,
// after the shell hooks ran. A webhook never changes the outcome.
func (e *Engine) DeliverWebhooks(ctx context.Context, d *Dispatch) []outbound.Result {
	targets := e.Webhooks(d.Event, d.Fields)
	if len(targets) == 0 {
		return nil
	}
	return outbound.DeliverAll(ctx, e.Outbound, targets, d.Event, d.Wire)
}
