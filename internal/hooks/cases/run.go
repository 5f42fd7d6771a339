package cases

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// Result is one case fired and judged.
type Result struct {
	Case Case
	Got  Got
	// Failures describe each expectation not met; empty when the case
	// passed.
	Failures []string
	Elapsed  time.Duration
	// Dispatch is the firing, for the per-hook details of a report; for a
	// slash command's case, Gateway is.
	Dispatch *hooks.Dispatch
	Gateway  *hooks.GatewayFiring
}

// GatewayOptions are how a slash command's case runs its gateway hooks:
// the interpreter (gateway.FindPython's answer and error) and the timeout.
type GatewayOptions struct {
	Python  string
	PyErr   error
	Timeout time.Duration
}

// RunCommand fires a slash command's case (command:<name>) through the
// gateway hooks as run-event does — exact subscribers, then command:*,
// stopping at the first decision — but records nothing (no audit line),
// and judges the decision. The payload is merged over the synthetic one.
func RunCommand(ctx context.Context, e *hooks.Engine, c Case, o GatewayOptions) (Result, error) {
	ge, ok := catalog.LookupGatewayEvent(c.Event)
	if !ok {
		return Result{}, fmt.Errorf("case %q: unknown event %q", c.Name, c.Event)
	}
	start := time.Now()
	g, err := e.FireGateway(ctx, c.Event, hooks.GatewayContext(ge, c.Payload), o.Python, o.PyErr, o.Timeout, false)
	if err != nil && ctx.Err() != nil {
		return Result{}, err
	}
	got := ObserveGateway(g)
	return Result{Case: c, Got: got, Failures: c.Check(got), Elapsed: time.Since(start), Gateway: g}, nil
}

// Passed reports whether every expectation was met.
func (r Result) Passed() bool { return len(r.Failures) == 0 }

// Blocked reports whether the firing blocked the call (a canary that
// counts as blocked).
func (r Result) Blocked() bool { return r.Got.Action != nil && *r.Got.Action == ActionBlock }

// Run fires the case's event through the engine's dispatch in policy mode
// — matchers, evaluation and aggregation as run-event, but every selected
// hook runs approved or not, nothing is recorded, no audit line, no
// webhook — and judges the outcome. The case's payload is merged over the
// event's synthetic payload, as test does: a case names only what it is
// about. An error is the dispatch's (interrupted, allowlist unreadable).
func Run(ctx context.Context, e *hooks.Engine, c Case, sel hooks.Selection) (Result, error) {
	ev, ok := e.Catalogue.Lookup(c.Event)
	if !ok {
		return Result{}, fmt.Errorf("case %q: unknown event %q", c.Name, c.Event)
	}
	fields := e.Payload(ev, c.Payload, true)
	start := time.Now()
	d, err := e.DispatchShellWith(ctx, ev.Name, fields, hooks.DispatchOptions{Policy: true, Selection: sel})
	if err != nil {
		return Result{}, err
	}
	got := Observe(d)
	return Result{Case: c, Got: got, Failures: c.Check(got), Elapsed: time.Since(start), Dispatch: d}, nil
}

// HookLines describe each hook of the firing in one line: fired with its
// exit code and anything that went wrong, or skipped and why. Hook output
// is quoted, so control characters show as escapes.
func (r Result) HookLines() []string {
	if r.Gateway != nil {
		return gatewayLines(r.Gateway)
	}
	if r.Dispatch == nil {
		return nil
	}
	var out []string
	for _, run := range r.Dispatch.Runs {
		if !run.Fired() {
			out = append(out, fmt.Sprintf("%s: skipped (%s)", run.Hook.Shown(), run.SkipReason))
			continue
		}
		res := run.Result
		parts := []string{"exit " + exitText(res.ExitCode)}
		if res.TimedOut {
			parts = append(parts, fmt.Sprintf("timed out after %ds", run.Hook.Timeout))
		} else if res.Err != "" {
			parts = append(parts, "error: "+res.Err)
		}
		if a := run.Eval.Answer; a != nil {
			parts = append(parts, "answered "+a.Wire().String())
		} else {
			parts = append(parts, "answered nothing")
		}
		for _, w := range run.Eval.Warnings {
			parts = append(parts, "warning: "+w)
		}
		if s := strings.TrimSpace(res.Stderr); s != "" {
			q := quoteOrNull(&s)
			parts = append(parts, "stderr "+q)
		}
		out = append(out, fmt.Sprintf("%s: %s", run.Hook.Shown(), strings.Join(parts, "; ")))
	}
	return out
}

func exitText(code *int) string {
	if code == nil {
		return "none"
	}
	return fmt.Sprint(*code)
}

// gatewayLines describe each handler of a slash command's firing.
func gatewayLines(g *hooks.GatewayFiring) []string {
	var out []string
	for i, h := range g.Hooks {
		res := g.Results[i]
		switch {
		case res.NotRun:
			out = append(out, fmt.Sprintf("%s: %s", h.Name, res.Error))
		case res.Error != "":
			out = append(out, fmt.Sprintf("%s: %s: %s", h.Name, res.Status, res.ErrorLine()))
		default:
			out = append(out, fmt.Sprintf("%s: returned %s", h.Name, string(res.Result)))
		}
	}
	return out
}
