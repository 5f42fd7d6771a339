package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
)

type eventsOptions struct {
	f    *Factory
	JSON bool
}

func newCmdEvents(f *Factory, runF func(*eventsOptions) error) *cobra.Command {
	opts := &eventsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "events",
		Short: "List the events hooks can attach to, with their fields",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return eventsRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

type eventsJSON struct {
	whereJSON
	ShellEvents   []shellEventJSON    `json:"shell_events"`
	GatewayEvents []gatewayEventJSON  `json:"gateway_events"`
	Diagnostics   []config.Diagnostic `json:"diagnostics"`
}

type shellEventJSON struct {
	Name           string   `json:"name"`
	Description    string   `json:"description"`
	Fields         []string `json:"fields"`
	ToolEvent      bool     `json:"tool_event"`
	Blocking       bool     `json:"blocking"`
	ShellSupported bool     `json:"shell_supported"`
}

type gatewayEventJSON struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Fields      []string `json:"fields"`
}

func eventsRun(cmd *cobra.Command, opts *eventsOptions) error {
	// The config is read for hooks_extra_events; events works without one.
	env, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	if opts.JSON {
		out := eventsJSON{whereJSON: where(env.Loc),
			ShellEvents: []shellEventJSON{}, GatewayEvents: []gatewayEventJSON{}, Diagnostics: env.Diagnostics()}
		for _, e := range env.Catalogue.Events() {
			out.ShellEvents = append(out.ShellEvents, shellEventJSON{e.Name, e.Description, nonNil(e.Fields),
				e.Tool, e.Blocking, e.ShellSupported})
		}
		for _, g := range catalog.GatewayEvents() {
			out.GatewayEvents = append(out.GatewayEvents, gatewayEventJSON{g.Name, g.Description, nonNil(g.Fields)})
		}
		printWarnings(ios, env.Diagnostics(), nil)
		return writeJSON(ios.Out, out)
	}
	printWarnings(ios, env.Diagnostics(), nil)
	cs := ios.Colors()
	w := ios.Out
	// The config matters here: hooks_extra_events adds events.
	printLocation(w, env.Loc)
	fmt.Fprintf(w, "\n%s\n\n", cs.Bold("Shell-hook events"))
	for _, e := range env.Catalogue.Events() {
		var tags []string
		if e.Tool {
			tags = append(tags, "tool event: matcher honoured")
		}
		if e.Blocking {
			tags = append(tags, "blocking")
		}
		if !e.ShellSupported {
			tags = append(tags, "not available to shell hooks")
		}
		if e.Extra {
			tags = append(tags, "from hooks_extra_events")
		}
		name := cs.Cyan(esc(e.Name)) // hooks_extra_events come from the config
		if len(tags) > 0 {
			name += " (" + strings.Join(tags, "; ") + ")"
		}
		fmt.Fprintf(w, "  %s\n      %s\n", name, e.Description)
		if len(e.Fields) > 0 {
			fmt.Fprintf(w, "      fields: %s\n", strings.Join(e.Fields, ", "))
		}
	}
	fmt.Fprintf(w, "\n%s\n\n", cs.Bold("Gateway events"))
	for _, g := range catalog.GatewayEvents() {
		fmt.Fprintf(w, "  %s\n      %s\n      fields: %s\n", cs.Cyan(g.Name), g.Description, strings.Join(g.Fields, ", "))
	}
	return nil
}
