package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func dryRun(ios *iostreams.IOStreams, e *hooks.Engine, event, tool string, wire *pyjson.Object, hs []hooks.ShellHook, asJSON bool) error {
	if asJSON {
		out := dryRunJSON[dryHookJSON]{whereJSON: where(e.Loc), Event: event,
			DryRun: true, Payload: wire, Hooks: []dryHookJSON{}, Diagnostics: e.Diagnostics()}
		for _, h := range hs {
			argv := nonNil(h.Argv)
			if h.HasSecret() {
				argv = nil
			}
			out.Hooks = append(out.Hooks, dryHookJSON{"shell", commandOf(h.Spec), argv, h.Approved, h.Timeout})
		}
		return writeJSON(ios.Out, out)
	}
	w := ios.Out
	cs := ios.Colors()
	printLocation(w, e.Loc)
	if len(hs) == 0 {
		fmt.Fprintf(w, "\n%s\n", noHooksLine(event, tool))
	} else {
		fmt.Fprintf(w, "\nWould fire %d hook(s) for event '%s' (dry run: nothing runs):\n", len(hs), esc(event))
		for _, h := range hs {
			state := cs.SuccessIcon() + " allowed"
			switch why := wouldSkip(h); {
			case !h.Approved:
				state = cs.FailureIcon() + " not allowlisted"
			case why != "":
				state = cs.WarningIcon() + " " + esc(why)
			}
			fmt.Fprintf(w, "  %s  %s  (timeout %ds)\n", state, esc(h.Spec.Named()), h.Timeout)
		}
	}
	fmt.Fprintf(w, "\nstdin:\n%s\n", esc(string(catalog.WireBytes(wire))))
	return nil
}

// dryRunJSON is the --dry-run --json shape of test and run-event. H is
// what a hook is listed as: dryHookJSON for a shell event,
// gatewayDryHookJSON for a gateway event (whose payload is the context).
type dryRunJSON[H any] struct {
	whereJSON
	Event   string         `json:"event"`
	DryRun  bool           `json:"dry_run"`
	Payload *pyjson.Object `json:"payload"`
	Hooks   []H            `json:"hooks"`
	// Diagnostics as in the other --json outputs.
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

type dryHookJSON struct {
	Kind string `json:"kind"`
	commandJSON
	// Argv is null when a secret went into the command.
	Argv     []string `json:"argv"`
	Approved bool     `json:"approved"`
	Timeout  int      `json:"timeout"`
}

// noHooksLine says that no hook of event runs, in the agent's words; with
// --for-tool it names the filter, which may be why.
func noHooksLine(event, tool string) string {
	msg := "No shell hooks configured for event: " + esc(event)
	if tool != "" {
		msg += " (with matcher filter --for-tool=" + esc(tool) + ")"
	}
	return msg
}
