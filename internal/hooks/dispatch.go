package hooks

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks/outbound"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/pyre"
	"github.com/hermes-hooks/hermes/internal/record"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// Consent decides, for a hook that is not trusted, whether it may fire now
// and how that approval is to be recorded. It is the CLI's part: flags,
// environment, config, or a prompt.
type Consent func(h ShellHook) (Grant, error)

// Grant is a consent's answer.
type Grant struct {
	OK  bool
	Via string // an allowlist.Via* value
	// SHA256 is the hash of the script the user was shown, "" when nothing
	// was shown (a flag, the environment, the config): the approval records
	// that content and nothing else (SPEC §13.6).
	SHA256 string
}

// Dispatch is one real firing of an event (run-event).
type Dispatch struct {
	// ID names the firing in the audit log (every line of it) and the
	// payload store (SPEC §26).
	ID       string
	Event    string
	Fields   *pyjson.Object
	Wire     *pyjson.Object
	Runs     []ShellRun
	Outcome  *Outcome
	Warnings []string
	// Errors are writes that failed during the firing (recording an
	// approval): reported beside the outcome, which they never change
	// (SPEC §22).
	Errors []string
	// Interrupted: Ctrl-C or SIGTERM ended the firing; Runs holds what ran
	// so far, the interrupted hook last.
	Interrupted bool
	// audited: an audit line of the firing was written.
	audited bool
}

// Blocked reports whether the outcome blocks the tool call.
func (d *Dispatch) Blocked() bool { return IsBlock(d.Outcome) }

// DispatchShell fires a shell event as the agent would: every configured
// hook in config order, matcher first, then trust, decided for each hook
// right before it would start (InspectNow: its script hashed and its path
// checked now), else consent; run, evaluate; then aggregate. With safeMode
// nothing runs. Approvals given through consent are recorded before the
// hook runs. An error from consent (Ctrl-C at a prompt) or from recording
// an approval stops the dispatch. An interrupt while a hook runs returns
// the dispatch so far (Interrupted) with ctx's error.
func (e *Engine) DispatchShell(ctx context.Context, event string, fields *pyjson.Object, safeMode bool, consent Consent) (*Dispatch, error) {
	return e.DispatchShellWith(ctx, event, fields, DispatchOptions{SafeMode: safeMode, Consent: consent})
}

// DispatchOptions say how a firing departs from the agent's own.
type DispatchOptions struct {
	// SafeMode: nothing runs (HERMES_SAFE_MODE); every hook is listed as
	// skipped.
	SafeMode bool
	// Consent is asked about each hook that is not trusted; required
	// unless Policy.
	Consent Consent
	// Policy is a policy test (test --cases): every hook the matcher and
	// the selection let through runs, approved or not (refusals still
	// hold); consent is never asked, nothing is recorded in the allowlist
	// and no audit line is written.
	Policy bool
	// Selection leaves hooks out (--only, --skip).
	Selection Selection
}

// DispatchShellWith is DispatchShell with options: the one loop behind
// run-event and test --cases.
func (e *Engine) DispatchShellWith(ctx context.Context, event string, fields *pyjson.Object, opts DispatchOptions) (*Dispatch, error) {
	// An interrupt during the work before (reading a large payload) fires
	// nothing and writes nothing.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ev, _ := e.Catalogue.Lookup(event)
	d := &Dispatch{ID: record.NewID(), Event: event, Fields: fields, Wire: e.WireFor(event, fields)}
	list, warnings, err := e.Store.Read()
	if err != nil {
		return nil, err
	}
	d.Warnings = append(d.Warnings, warnings...)
	toolName := ToolName(fields)
	// The matchers of a firing share one budget; time spent running hooks
	// does not count against it.
	budget := hookspec.NewMatchBudget()
	matches := func(m *hookspec.Matcher) (ok, timedOut bool) {
		ok, err := budget.Match(m, toolName)
		if err != nil {
			d.Warnings = append(d.Warnings, err.Error())
		}
		return ok, errors.Is(err, pyre.ErrTimeout)
	}
	var answers []*Answer
	for _, spec := range e.Parsed.Disabled {
		// Listed, never judged or run (SPEC §27): a disabled hook opens no
		// fail-closed guard either, the agent does not register it.
		if spec.Event == event {
			d.Runs = append(d.Runs, ShellRun{Hook: ShellHook{Spec: spec}, SkipReason: SkipDisabled})
		}
	}
	for _, spec := range e.Parsed.ForEvent(event) {
		run := ShellRun{Hook: ShellHook{Spec: spec}}
		trustSkip := false // skipped by the trust decision, not by choice
		matched, matchTimedOut := true, false
		if ev.Tool && !opts.SafeMode && !opts.Selection.Excludes(run.Hook) {
			matched, matchTimedOut = matches(spec.Matcher)
		}
		switch {
		case opts.SafeMode:
			run.SkipReason = SkipSafeMode
		case opts.Selection.Excludes(run.Hook):
			run.SkipReason = opts.Selection.SkipReason(run.Hook)
		case matchTimedOut && spec.FailClosed && ev.Blocking:
			// A matcher that could not decide opens no fail-closed guard
			// (SPEC §13.2 rule 5): it blocks, as a guard that failed.
			run.SkipReason = SkipMatcherTimeout
			trustSkip = true
		case !matched:
			run.SkipReason = SkipMatcher
		default:
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			h, why, err := e.admit(spec, list, opts, d)
			if err != nil {
				return nil, err
			}
			run.Hook, run.SkipReason = h, why
			trustSkip = why != "" && why != SkipNotApproved
		}
		if opts.Policy && run.Hook.Script == "" && run.Hook.ParseErr == nil {
			// Not judged (the matcher or the selection left it out): the
			// policy report still says whether it is approved and trusted.
			run.Hook = e.Inspect(spec, list)
		}
		if run.SkipReason != "" {
			if a := failClosedOnSkip(ev, run, trustSkip); a != nil {
				run.Eval.Answer = a
				answers = append(answers, a)
			}
			d.Runs = append(d.Runs, run)
			continue
		}
		run = e.RunShell(ctx, run.Hook, d.Wire)
		after := e.checkAfter(d, run)
		if ctx.Err() != nil {
			// Interrupted: the hook's group was killed; account for it and
			// stop here.
			run.Interrupted = true
			if !opts.Policy {
				e.audit(d, run, after)
				e.recordPayload(d)
			}
			d.Runs = append(d.Runs, run)
			d.Interrupted = true
			return d, ctx.Err()
		}
		if !opts.Policy {
			e.audit(d, run, after)
		}
		answers = append(answers, run.Eval.Answer)
		d.Runs = append(d.Runs, run)
	}
	args, _ := fields.Get(catalog.FieldArgs)
	argsObj, _ := args.(*pyjson.Object)
	d.Outcome = Aggregate(event, argsObj, answers)
	if !opts.Policy {
		e.recordPayload(d)
	}
	return d, nil
}

// admit decides whether the hook of spec runs now. It returns the hook as
// seen at this moment and "" when it may run, else why not. A command that
// cannot run as written is refused, always, and so is a script others can
// change. A policy test runs every other hook: approval is not its
// question. Otherwise an
// untrusted hook is put to consent, and an approval given is recorded
// pinned to the content that was shown or, when nothing was shown, to the
// content there now, then checked again.
func (e *Engine) admit(spec hookspec.Spec, list *allowlist.List, opts DispatchOptions, d *Dispatch) (ShellHook, string, error) {
	h := e.InspectNow(spec, list)
	switch {
	case h.Refusal != "":
		return h, h.Refusal, nil
	case h.Unsafe != nil:
		// A policy test too: whoever else can change the script decides
		// what it runs (SPEC §13.2 rule 6).
		return h, trust.UnsafePrefix + h.Unsafe.Error(), nil
	case opts.Policy:
		return h, "", nil
	case h.Allowed():
		return h, "", nil
	case h.Drift == allowlist.DriftModified:
		// The allowlist was read before the script was hashed: an edit
		// (SPEC §25) may have approved the content now there since. Read
		// it once more, after the hash.
		if fresh, _, err := e.Store.Read(); err == nil {
			if again := e.InspectNow(spec, fresh); again.Allowed() {
				return again, "", nil
			}
		}
	}
	// A script that is there but cannot be hashed cannot be approved (SPEC
	// §13.2 rule 1): any approval of it would record no sha256. Consent is
	// told, so that it offers nothing and says why.
	if h.HasScriptFile() {
		h.Unapprovable = trust.Unhashable(allowlist.FingerprintNow(h.Script))
	}
	if h.Unapprovable == "" {
		h.Unapprovable = trust.CodeUnhashable(h.Code, h.Script)
	}
	g, err := opts.Consent(h)
	if err != nil {
		return h, "", err
	}
	if !g.OK || h.Unapprovable != "" {
		if h.Unapprovable != "" && !h.Approved {
			return h, h.Unapprovable, nil
		}
		return h, h.Reason(), nil
	}
	entries, warnings, err := e.ApprovePinned([]ShellHook{h}, g.Via, e.Now(), g.SHA256)
	d.Warnings = append(d.Warnings, warnings...)
	var unsynced *allowlist.DirSyncError
	switch {
	case errors.Is(err, ErrHashMismatch):
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s hook %q: the script changed after it was shown; nothing was approved", h.Event, h.Shown()))
		return h, SkipModified, nil
	case errors.Is(err, context.Canceled):
		return h, "", err // interrupted while waiting for the lock
	case errors.As(err, &unsynced):
		// Recorded: the hook runs; the sync failure is reported.
		d.Errors = append(d.Errors, fmt.Sprintf("%s hook %q was approved, but: %v", h.Event, h.Shown(), err))
	case err != nil:
		// A full disk or an I/O error changes no decision: this hook does
		// not run unapproved, and the others' answers stand.
		d.Errors = append(d.Errors, fmt.Sprintf("%s hook %q was not run: recording its approval failed: %v", h.Event, h.Shown(), err))
		return h, SkipApprovalFailed, nil
	}
	// Judge the hook against the approval just written, with the script
	// hashed once more: what runs must be what was approved.
	approved := &allowlist.List{}
	approved.Approve(entries[0])
	h = e.InspectNow(spec, approved)
	if !h.Allowed() {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s hook %q: the script changed right after it was approved; not run", h.Event, h.Shown()))
		return h, h.Reason(), nil
	}
	return h, "", nil
}

// failClosedOnSkip is the answer of a fail-closed guard that the trust
// decision kept from running (pinning, the path rules, a refusal): it could
// not run, so it blocks, as it would had it failed to start. A hook that was
// never approved, or that the matcher, safe mode, --only or --skip left
// out, contributes nothing.
func failClosedOnSkip(ev catalog.Event, run ShellRun, trustSkip bool) *Answer {
	h := run.Hook
	if !trustSkip || !h.FailClosed || !ev.Blocking {
		return nil
	}
	return Evaluate(EvalInput{Event: h.Event, Command: h.Shown(), Blocking: true, FailClosed: true,
		Timeout: h.Timeout, Result: shell.Result{Err: run.SkipReason}}).Answer
}

// checkAfter hashes the script again once its hook has ended (SPEC §13.4)
// and warns when it changed while the hook ran. It returns the hash now.
func (e *Engine) checkAfter(d *Dispatch, run ShellRun) string {
	h := run.Hook
	if !h.HasScriptFile() {
		return ""
	}
	after := allowlist.FingerprintNow(h.Script).SHA256
	if before := h.Fingerprint.SHA256; before != "" && after != before {
		d.Warnings = append(d.Warnings, fmt.Sprintf("the script %s of %s hook %q changed while the hook ran (sha256 %s before, %s after)",
			h.Script, h.Event, h.Shown(), shortHash(before), shortHash(after)))
	}
	return after
}

// shortHash is the first 12 hex digits of a sha256, "none" for none.
func shortHash(sha string) string {
	if sha == "" {
		return "none"
	}
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// audit appends the run to the audit log unless the config turned it off;
// a failure to log is a warning, never a reason to stop the agent's work.
// after is the script's hash once the hook ended.
func (e *Engine) audit(d *Dispatch, run ShellRun, after string) {
	if !e.Config.Settings.AuditLog {
		return
	}
	rec := audit.Record{ID: d.ID, Time: e.Now(), Event: d.Event, Kind: "shell", Command: run.Hook.Shown(),
		SHA256: run.Hook.Fingerprint.SHA256, SHA256After: after, Interrupted: run.Interrupted,
		Result: run.Result, Answer: run.Eval.Answer, Via: audit.ViaRunEvent, FailClosed: run.Hook.FailClosed}
	if run.Hook.Protected() {
		// Named as the guard names it when the agent fires it (SPEC §24
		// item 4): one hook, one name in log and stats.
		rec.Command, rec.Wrapped = guard.AuditCommand(run.Hook.Command)
	}
	if run.GuardRefusal != "" {
		rec.Status, rec.Refusal = audit.StatusRefused, run.GuardRefusal
	}
	if err := audit.Append(e.Loc.Home, rec); err != nil {
		d.Warnings = append(d.Warnings, err.Error())
		return
	}
	d.audited = true
}

// recordPayload stores the firing's wire payload under its id when
// recording is on and the firing left an audit line to find it by (SPEC
// §26), redacted with the secrets of the environment handed to hooks. A
// failure is a warning, never a changed outcome.
func (e *Engine) recordPayload(d *Dispatch) {
	if e.Record == nil || !e.Record.On || !d.audited {
		return
	}
	st := record.Open(e.Loc.Home, e.Record.Max)
	if err := st.Save(d.ID, catalog.WireBytes(d.Wire), record.EnvSecrets(e.Environ)); err != nil {
		d.Warnings = append(d.Warnings, "the payload was not recorded: "+err.Error())
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
		out = append(out, outbound.Target{Name: w.Name, URL: w.URL, Shown: w.Shown, Secret: w.Secret,
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
