package cli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

type gatewayResultJSON struct {
	Kind           string          `json:"kind"`
	Name           string          `json:"name"`
	Status         string          `json:"status"`
	SkipReason     *string         `json:"skip_reason,omitempty"`
	Error          *string         `json:"error"`
	ElapsedSeconds float64         `json:"elapsed_seconds"`
	Result         json.RawMessage `json:"result"`
}

type gatewayOutJSON struct {
	HermesHome  string              `json:"hermes_home"`
	ConfigPath  *string             `json:"config_path"`
	Event       string              `json:"event"`
	Payload     *pyjson.Object      `json:"payload"`
	Results     []gatewayResultJSON `json:"results,omitempty"`
	Hooks       []gatewayResultJSON `json:"hooks,omitempty"`
	Outcome     *hooks.Outcome      `json:"outcome"`
	Webhooks    []webhookResultJSON `json:"webhooks"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

// gatewayTestRun fires a gateway event (an event name with ':'): for test,
// or for real (run-event: safe mode honoured, audit log written).
func gatewayTestRun(cmd *cobra.Command, f *Factory, e *hooks.Engine, event string, given *pyjson.Object, p *payloadFlags, real bool) error {
	ge, ok := hooks.LookupGatewayEvent(event)
	if !ok {
		return unknownEventError(e.Setup, event)
	}
	ios := f.IO
	ctxObj := hooks.GatewayContext(ge, given)
	matched := gateway.Match(e.GatewayHooks(), event)
	safe := safeMode(f)
	if p.DryRun || (real && safe) {
		if real && safe {
			fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: no hook or webhook fires.")
		}
		return renderGateway(f, e, event, ctxObj, &hooks.GatewayFiring{Event: event, Context: ctxObj, Hooks: matched}, p, real, safe)
	}
	if !real && safe && !p.Output {
		fmt.Fprintln(ios.ErrOut, "Note: HERMES_SAFE_MODE is set: run-event would fire nothing; test runs the hooks anyway.")
	}
	python, perr := gateway.FindPython(p.Python, f.Env)
	g, err := e.FireGateway(cmd.Context(), event, ctxObj, python, p.Timeout, real)
	if cmd.Context().Err() != nil {
		return CancelError
	}
	if err != nil && !errors.Is(err, gateway.ErrPythonUnavailable) {
		return err
	}
	if perr != nil && len(matched) > 0 {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrColors().WarningIcon(), perr)
	}
	return renderGateway(f, e, event, ctxObj, g, p, real, false)
}

func renderGateway(f *Factory, e *hooks.Engine, event string, ctxObj *pyjson.Object, g *hooks.GatewayFiring, p *payloadFlags, real, safe bool) error {
	ios := f.IO
	var entries []gatewayResultJSON
	for i, h := range g.Hooks {
		j := gatewayResultJSON{Kind: "gateway", Name: h.Name, Result: json.RawMessage("null")}
		switch {
		case g.Results == nil:
			j.Status = "skipped"
			if real && safe {
				j.SkipReason = nullableString(hooks.SkipSafeMode)
			} else {
				j.Status = "dry run"
			}
		default:
			r := g.Results[i]
			j.Status, j.Error, j.ElapsedSeconds, j.Result = r.Status, nullableString(r.Error), r.ElapsedSeconds, r.Result
			if real {
				j.Status = "fired"
			}
		}
		entries = append(entries, j)
	}
	if p.Output {
		out := gatewayOutJSON{HermesHome: e.Loc.Home, ConfigPath: nullableString(e.Loc.ConfigPath), Event: event,
			Payload: ctxObj, Diagnostics: e.Diagnostics()}
		if real {
			out.Hooks, out.Webhooks = nonNil(entries), []webhookResultJSON{}
		} else {
			out.Results = nonNil(entries)
		}
		return writeJSON(ios.Out, out)
	}
	w := ios.Out
	cs := ios.Colors()
	printLocation(w, e.Setup)
	if len(g.Hooks) == 0 {
		fmt.Fprintf(w, "\nNo gateway hooks subscribed to event: %s (looked in %s)\n", event, e.GatewayDir())
		return nil
	}
	fmt.Fprintf(w, "\nFiring %d gateway hook(s) for event '%s':\n", len(g.Hooks), event)
	for _, j := range entries {
		switch {
		case j.Status == "dry run" || j.Status == "skipped":
			fmt.Fprintf(w, "\n  %s %s (%s)\n", cs.Gray("-"), j.Name, j.Status)
		case j.Error != nil:
			fmt.Fprintf(w, "\n  %s %s  (%.3fs)\n%s\n", cs.FailureIcon(), cs.Bold(j.Name), j.ElapsedSeconds, indent(cut(*j.Error, 2000), "      "))
		default:
			fmt.Fprintf(w, "\n  %s %s  (%.3fs)\n    result: %s\n", cs.SuccessIcon(), cs.Bold(j.Name), j.ElapsedSeconds, j.Result)
		}
	}
	if p.DryRun {
		fmt.Fprintf(w, "\ncontext:\n%s\n", ctxObj)
	}
	return nil
}
