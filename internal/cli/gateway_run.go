package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Gateway entries of run-event: a hook that did not run is skipped, and
// says why.
const (
	statusFired   = "fired"
	statusSkipped = "skipped"
	// skipPythonUnavailable: a handler.py hook with no Python to run it.
	skipPythonUnavailable = "python unavailable"
)

// gatewayTestJSON is `test <gateway event> --json`: the shape of a shell
// test, with gateway entries.
type gatewayTestJSON struct {
	whereJSON
	Event   string         `json:"event"`
	Payload *pyjson.Object `json:"payload"`
	// Hooks is the per-hook list, as in run-event; Results the same list
	// under its old name, kept for one release (docs/json.md).
	Hooks   []gatewayTestResultJSON `json:"hooks"`
	Results []gatewayTestResultJSON `json:"results"`
	// Outcome: a slash command's routing (command:<name> only).
	Outcome     *gateway.Decision   `json:"outcome,omitempty"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

type gatewayTestResultJSON struct {
	Kind           string          `json:"kind"`
	Name           string          `json:"name"`
	Status         string          `json:"status"` // ok, error, timeout
	Error          *string         `json:"error"`
	ElapsedSeconds float64         `json:"elapsed_seconds"`
	Result         json.RawMessage `json:"result"`
	// What the handler printed (its own prints, not the runner's reply).
	outputJSON
	// Its log records at INFO and above, and the threads it started that
	// were still running when handle returned (SPEC §28 item 5).
	Logs           []gateway.LogRecord `json:"logs"`
	ThreadsRunning int                 `json:"threads_running"`
}

// gatewayRunJSON is `run-event <gateway event> --json`: the shape of a
// shell run-event. Gateway hooks observe, so the outcome is null, except
// for a slash command (command:<name>): what the gateway does with it
// (gateway.Decision). No webhook serves a gateway event.
type gatewayRunJSON struct {
	Event string `json:"event"`
	whereJSON
	Hooks       []gatewayFiredJSON  `json:"hooks"`
	Outcome     *gateway.Decision   `json:"outcome"`
	Webhooks    []webhookResultJSON `json:"webhooks"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

type gatewayFiredJSON struct {
	Kind           string          `json:"kind"`
	Name           string          `json:"name"`
	Status         string          `json:"status"` // fired, skipped
	SkipReason     *string         `json:"skip_reason"`
	Error          *string         `json:"error"`
	ElapsedSeconds float64         `json:"elapsed_seconds"`
	Result         json.RawMessage `json:"result"`
	// What the handler printed (its own prints, not the runner's reply).
	outputJSON
}

// gatewayDryHookJSON is a gateway hook in dryRunJSON.
type gatewayDryHookJSON struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Dir     string `json:"dir"`
	Handler string `json:"handler"`
}

// gatewayTestRun fires a gateway event (an event name with ':') for test, or
// for real (run-event: the payload as given, safe mode honoured, audit log
// written).
func gatewayTestRun(cmd *cobra.Command, f *Factory, e *hooks.Engine, event string, given *pyjson.Object, p *payloadFlags, real bool) error {
	if event == "command:*" {
		return usageErrorf("command:* stands for every slash command event: fire one of them, such as command:model")
	}
	ge, ok := catalog.LookupGatewayEvent(event)
	if !ok {
		return unknownEventError(e.Setup, event)
	}
	ios := f.IO
	if p.ForTool != "" {
		fmt.Fprintf(ios.ErrOut, "%s --for-tool is ignored: %s is a gateway event, not a tool event\n", ios.ErrColors().WarningIcon(), esc(event))
	}
	ctxObj := hooks.GatewayContext(ge, given)
	if real {
		ctxObj = hooks.GatewayRealContext(ge, given)
	}
	for _, h := range e.GatewayNotLoaded(event) {
		fmt.Fprintf(ios.ErrOut, "%s gateway hook %s (%s) subscribes to %s but is not loaded: %s\n",
			ios.ErrColors().WarningIcon(), esc(h.Name), esc(h.Dir), esc(event), esc(strings.Join(h.Problems, "; ")))
	}
	if err := e.GatewayError(); err != nil {
		return err
	}
	matched := gateway.Match(e.GatewayHooks(), event)
	if p.DryRun {
		return renderGatewayDryRun(f, e, event, ctxObj, matched, p.Output)
	}
	safe := safeMode(f)
	if real && safe {
		fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: no hook or webhook fires.")
		g := &hooks.GatewayFiring{Event: event, Context: ctxObj, Hooks: matched}
		g.Decide()
		return renderGateway(f, e, g, p, real)
	}
	if !real && safe {
		fmt.Fprintln(ios.ErrOut, "Note: HERMES_SAFE_MODE is set: run-event would fire nothing; test runs the hooks anyway.")
	}
	python, pyErr := "", error(nil)
	if needsPython(matched) {
		python, pyErr = gateway.FindPython(p.Python, f.Env)
		if pyErr != nil {
			fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrColors().WarningIcon(), esc(pyErr.Error()))
		}
	}
	g, err := e.FireGateway(cmd.Context(), event, ctxObj, python, pyErr, p.Timeout, real)
	if cmd.Context().Err() != nil {
		return CancelError
	}
	if err != nil && !errors.Is(err, gateway.ErrPythonUnavailable) {
		return err
	}
	printWarnings(ios, nil, g.Warnings)
	return renderGateway(f, e, g, p, real)
}

func needsPython(hs []gateway.Hook) bool {
	for _, h := range hs {
		if h.Handler == gateway.HandlerPy {
			return true
		}
	}
	return false
}

// gatewayEntry is one hook's line of a firing, for both shapes.
type gatewayEntry struct {
	name       string
	status     string
	skipReason string
	res        gateway.Result
}

// json is the entry as run-event --json lists it.
func (en gatewayEntry) json() gatewayFiredJSON {
	return gatewayFiredJSON{Kind: "gateway", Name: en.name, Status: en.status,
		SkipReason: pyjson.NullIfEmpty(en.skipReason), Error: pyjson.NullIfEmpty(en.res.Error),
		ElapsedSeconds: en.res.ElapsedSeconds, Result: en.res.Result, outputJSON: gatewayOutput(en.res)}
}

func gatewayEntries(g *hooks.GatewayFiring, real bool) []gatewayEntry {
	var out []gatewayEntry
	for i, h := range g.Hooks {
		en := gatewayEntry{name: h.Name, res: gateway.Result{Result: json.RawMessage("null")}}
		switch {
		case g.Results == nil: // safe mode
			en.status, en.skipReason = statusSkipped, hooks.SkipSafeMode
		case g.Results[i].AfterDecision: // the gateway stops at a decision
			en.status, en.skipReason, en.res = statusSkipped, strings.TrimPrefix(g.Results[i].Error, "not run: "), g.Results[i]
			en.res.Error = ""
		case real && g.Unavailable[i]:
			en.status, en.skipReason, en.res = statusSkipped, skipPythonUnavailable, g.Results[i]
		case real && g.Results[i].NotRun:
			// Never "fired" for a handler that did not start.
			en.status, en.skipReason, en.res = statusSkipped, g.Results[i].Error, g.Results[i]
		case real:
			en.status, en.res = statusFired, g.Results[i]
		default:
			en.status, en.res = g.Results[i].Status, g.Results[i]
		}
		out = append(out, en)
	}
	return out
}

func renderGateway(f *Factory, e *hooks.Engine, g *hooks.GatewayFiring, p *payloadFlags, real bool) error {
	ios := f.IO
	entries := gatewayEntries(g, real)
	if p.Output {
		if real {
			out := gatewayRunJSON{Event: g.Event, whereJSON: where(e.Loc), Outcome: g.Decision,
				Hooks: []gatewayFiredJSON{}, Webhooks: []webhookResultJSON{}, Diagnostics: e.Diagnostics()}
			for _, en := range entries {
				out.Hooks = append(out.Hooks, en.json())
			}
			return writeJSON(ios.Out, out)
		}
		out := gatewayTestJSON{whereJSON: where(e.Loc), Event: g.Event, Outcome: g.Decision,
			Payload: g.Context, Hooks: []gatewayTestResultJSON{}, Diagnostics: e.Diagnostics()}
		for _, en := range entries {
			out.Hooks = append(out.Hooks, gatewayTestResultJSON{Kind: "gateway", Name: en.name, Status: en.status,
				Error: pyjson.NullIfEmpty(en.res.Error), ElapsedSeconds: en.res.ElapsedSeconds, Result: en.res.Result,
				outputJSON: gatewayOutput(en.res), Logs: nonNil(en.res.Logs), ThreadsRunning: en.res.Threads})
		}
		out.Results = out.Hooks
		return writeJSON(ios.Out, out)
	}

	w := ios.Out
	cs := ios.Colors()
	printLocation(w, e.Loc)
	if len(g.Hooks) == 0 {
		fmt.Fprintf(w, "\nNo gateway hooks subscribed to event: %s (looked in %s)\n", esc(g.Event), esc(e.GatewayDir()))
		renderDecision(w, cs, g)
		return nil
	}
	defer renderDecision(w, cs, g)
	fired := 0
	for _, en := range entries {
		if en.status != statusSkipped {
			fired++
		}
	}
	fmt.Fprintf(w, "\nFiring %d gateway hook(s) for event '%s':\n", fired, esc(g.Event))
	for _, en := range entries {
		res := en.res
		switch {
		case en.status == statusSkipped:
			fmt.Fprintf(w, "\n  %s %s  skipped (%s)\n", cs.Gray("-"), cs.Bold(esc(en.name)), esc(en.skipReason))
			if res.Error != "" {
				fmt.Fprintf(w, "%s\n", indent(escText(res.Error), "    "))
			}
			continue
		case res.Error != "":
			fmt.Fprintf(w, "\n  %s %s  %s (%.3fs)\n%s\n", cs.FailureIcon(), cs.Bold(esc(en.name)), esc(res.Status), res.ElapsedSeconds,
				indent(escText(cut(res.Error, 2000)), "    "))
		default:
			fmt.Fprintf(w, "\n  %s %s  ok (%.3fs)\n    result: %s\n", cs.SuccessIcon(), cs.Bold(esc(en.name)), res.ElapsedSeconds, esc(string(res.Result)))
			if res.Repr {
				fmt.Fprintln(w, "    (not JSON-serialisable: its repr())")
			}
		}
		renderOutput(w, gatewayOutput(res), false)
		renderGatewayAfter(w, cs, en.name, res)
	}
	return nil
}

// renderGatewayAfter shows what a test would otherwise hide (SPEC §28 item
// 5): the handler's log records, which the gateway logs, and the threads
// it left running, whose work a test never sees finish.
func renderGatewayAfter(w io.Writer, cs iostreams.Palette, name string, res gateway.Result) {
	if len(res.Logs) > 0 {
		fmt.Fprintln(w, "    log:")
		for _, l := range res.Logs {
			fmt.Fprintf(w, "      %s %s: %s\n", esc(l.Level), esc(l.Logger), escText(l.Message))
		}
	}
	if res.Threads > 0 {
		noun := "thread"
		if res.Threads > 1 {
			noun = "threads"
		}
		fmt.Fprintf(w, "    %s %s: %d %s still running when handle() returned; in the gateway it keeps running\n",
			cs.WarningIcon(), esc(name), res.Threads, noun)
	}
}

// renderDecision says what the gateway does with a slash command.
func renderDecision(w io.Writer, cs iostreams.Palette, g *hooks.GatewayFiring) {
	d := g.Decision
	if d == nil {
		return
	}
	name := "/" + strings.TrimPrefix(g.Event, "command:")
	who := ""
	if d.By >= 0 && d.By < len(g.Hooks) {
		who = " (decided by " + esc(g.Hooks[d.By].Name) + ")"
	}
	fmt.Fprintln(w)
	switch d.Decision {
	case gateway.DecisionDeny:
		fmt.Fprintf(w, "Outcome: %s %s is denied%s; the gateway replies: %s\n", cs.Red("deny"), esc(name), who, esc(*d.Message))
	case gateway.DecisionHandled:
		reply := "nothing"
		if d.Message != nil {
			reply = esc(*d.Message)
		}
		fmt.Fprintf(w, "Outcome: %s %s was handled by a hook%s: the built-in command does not run; the gateway replies: %s\n", cs.Yellow("handled"), esc(name), who, reply)
	case gateway.DecisionRewrite:
		fmt.Fprintf(w, "Outcome: %s %s runs as %s instead%s\n", cs.Yellow("rewrite"), esc(name), esc(*d.Command), who)
	default:
		fmt.Fprintf(w, "Outcome: %s %s runs as typed (no hook decided otherwise)\n", cs.Green("allow"), esc(name))
	}
}

func gatewayOutput(res gateway.Result) outputJSON {
	return outputJSON{res.Stdout, res.Stderr, res.StdoutTruncated, res.StderrTruncated}
}

func renderGatewayDryRun(f *Factory, e *hooks.Engine, event string, ctxObj *pyjson.Object, matched []gateway.Hook, asJSON bool) error {
	ios := f.IO
	if asJSON {
		out := dryRunJSON[gatewayDryHookJSON]{whereJSON: where(e.Loc), Event: event,
			DryRun: true, Payload: ctxObj, Hooks: []gatewayDryHookJSON{}, Diagnostics: e.Diagnostics()}
		for _, h := range matched {
			out.Hooks = append(out.Hooks, gatewayDryHookJSON{"gateway", h.Name, h.Dir, h.Handler})
		}
		return writeJSON(ios.Out, out)
	}
	w := ios.Out
	printLocation(w, e.Loc)
	if len(matched) == 0 {
		fmt.Fprintf(w, "\nNo gateway hooks subscribed to event: %s (looked in %s)\n", esc(event), esc(e.GatewayDir()))
	} else {
		fmt.Fprintf(w, "\nWould fire %d gateway hook(s) for event '%s' (dry run: nothing runs):\n", len(matched), esc(event))
		for _, h := range matched {
			fmt.Fprintf(w, "  %s  %s\n", esc(h.Name), esc(h.HandlerPath()))
		}
	}
	fmt.Fprintf(w, "\ncontext:\n%s\n", esc(fmt.Sprint(ctxObj)))
	return nil
}
