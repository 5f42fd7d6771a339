package hooks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	rec "github.com/hermes-hooks/hermes/internal/record"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// GatewayFiring is one firing of a gateway event.
type GatewayFiring struct {
	Event   string
	Context *pyjson.Object
	Hooks   []gateway.Hook
	Results []gateway.Result // one per hook, nil when nothing ran (safe mode, dry run)
	// Unavailable[i] is set when hook i could not run because no Python
	// interpreter was found (its Result.Error says so).
	Unavailable []bool
	Warnings    []string
	// Decision is what the gateway does with the slash command of a
	// command:<name> event once its handlers ran; nil for other events.
	Decision *gateway.Decision
}

// Decide sets the firing's decision for a slash command's event.
func (g *GatewayFiring) Decide() {
	if !gateway.IsCommandEvent(g.Event) {
		return
	}
	d := gateway.Decide(g.Event, g.Hooks, g.Results)
	g.Decision = &d
	g.Warnings = append(g.Warnings, d.Warnings...)
}

// GatewayContext is the context handlers receive in test: the event's
// synthetic context with the given fields merged over it.
func GatewayContext(ge catalog.GatewayEvent, given *pyjson.Object) *pyjson.Object {
	base, err := ge.PayloadObject()
	if err != nil {
		base = pyjson.NewObject()
	}
	return catalog.MergeFields(base, given)
}

// GatewayRealContext is the context of a real firing (run-event): the given
// payload as it is, standing for what the gateway passed; the synthetic
// context only when none is given.
func GatewayRealContext(ge catalog.GatewayEvent, given *pyjson.Object) *pyjson.Object {
	if given != nil {
		return given.Clone()
	}
	return GatewayContext(ge, nil)
}

// GatewayNotLoaded returns the hooks that declare event (exactly or through
// "<prefix>:*") but will not fire because their folder has a problem.
// Disabled hooks are left out: that is the user's choice, not a fault.
func (s *Setup) GatewayNotLoaded(event string) []gateway.Hook {
	wild := ""
	if prefix, _, ok := strings.Cut(event, ":"); ok {
		wild = prefix + ":*"
	}
	var out []gateway.Hook
	for _, h := range s.GatewayHooks() {
		if h.Loaded || !h.Enabled {
			continue
		}
		if slices.Contains(h.Events, event) || wild != "" && slices.Contains(h.Events, wild) {
			out = append(out, h)
		}
	}
	return out
}

// FireGateway runs the gateway hooks subscribed to event. python is the
// interpreter (FindPython's answer) and pyErr why there is none: handler.py
// hooks then report pyErr and are marked Unavailable, executable handlers
// still run. When record is set, each hook that ran is appended to the audit
// log (unless the config turned it off).
func (e *Engine) FireGateway(ctx context.Context, event string, context *pyjson.Object, python string, pyErr error, timeout time.Duration, record bool) (*GatewayFiring, error) {
	g := &GatewayFiring{Event: event, Context: context, Hooks: gateway.Match(e.GatewayHooks(), event)}
	defer g.Decide()
	if len(g.Hooks) == 0 {
		return g, nil
	}
	if python == "" && pyErr == nil {
		pyErr = &gateway.PythonError{}
	}
	r := &gateway.Runner{Python: python, Timeout: timeout, Env: e.Environ, Home: e.Loc.Home, Exec: e.Runner}
	results, err := r.Fire(ctx, event, context, g.Hooks)
	g.Results = results
	g.Unavailable = make([]bool, len(results))
	for i, h := range g.Hooks {
		if python == "" && h.Handler == gateway.HandlerPy {
			// The runner only knows no interpreter was given; say why.
			g.Unavailable[i] = true
			g.Results[i].Error = pyErr.Error()
		}
	}
	if record && e.Config.Settings.AuditLog {
		id := rec.NewID() // the firing's: every line of it carries it (SPEC §26)
		// The handler that decided a slash command's fate says so in its
		// line (SPEC §21), so log and stats show a deny as what it was.
		decidedBy, decision := -1, gateway.Decision{}
		if gateway.IsCommandEvent(event) {
			decision = gateway.Decide(event, g.Hooks, results)
			decidedBy = decision.By
		}
		for i, res := range results {
			if g.Unavailable[i] || res.NotRun {
				continue
			}
			h := g.Hooks[i]
			sha := ""
			if p := h.HandlerPath(); p != "" {
				sha = e.Fingerprints.Of(p).SHA256
			}
			line := audit.Record{ID: id, Time: e.Now(), Event: event, Kind: "gateway", Name: h.Name, SHA256: sha,
				Result: shell.Result{TimedOut: res.Status == gateway.StatusTimeout},
				Error:  res.Error, Elapsed: res.ElapsedSeconds}
			if i == decidedBy {
				line.Answer, line.AnswerKind = decision, decision.Decision
			}
			if aerr := audit.Append(e.Loc.Home, line); aerr != nil {
				g.Warnings = append(g.Warnings, fmt.Sprintf("gateway hook %s ran but was not recorded: %v", h.Name, aerr))
			}
		}
	}
	return g, err
}
