package hooks

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// GatewayFiring is one firing of a gateway event.
type GatewayFiring struct {
	Event   string
	Context *pyjson.Object
	Hooks   []gateway.Hook
	Results []gateway.Result // one per hook, nil when nothing ran (safe mode, dry run)
}

// GatewayContext is the context handlers receive: the event's synthetic
// context with the given fields merged over it.
func GatewayContext(ge GatewayEvent, given *pyjson.Object) *pyjson.Object {
	base, err := ge.PayloadObject()
	if err != nil {
		base = pyjson.NewObject()
	}
	return MergeFields(base, given)
}

// FireGateway runs the gateway hooks subscribed to event. python is the
// interpreter (FindPython's answer, "" when none: .py handlers then report
// gateway hooks unavailable, executable handlers still run). When audit is
// set, each hook run is appended to the audit log.
func (e *Engine) FireGateway(ctx context.Context, event string, context *pyjson.Object, python string, timeout time.Duration, audit bool) (*GatewayFiring, error) {
	g := &GatewayFiring{Event: event, Context: context, Hooks: gateway.Match(e.GatewayHooks(), event)}
	if len(g.Hooks) == 0 {
		return g, nil
	}
	r := &gateway.Runner{Python: python, Timeout: timeout, Env: e.Environ, Home: e.Loc.Home, Exec: e.Runner}
	results, err := r.Fire(ctx, event, context, g.Hooks)
	g.Results = results
	if audit && e.Config.Settings.AuditLog {
		for i, res := range results {
			h := g.Hooks[i]
			sha := ""
			if p := h.HandlerPath(); p != "" {
				sha = e.Fingerprints.Of(p).SHA256
			}
			_ = AppendAudit(e.Loc.Home, AuditRecord{Time: e.Now(), Event: event, Kind: "gateway", Name: h.Name,
				SHA256: sha, Error: res.Error, Elapsed: res.ElapsedSeconds})
		}
	}
	return g, err
}
