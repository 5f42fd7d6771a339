package cli

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/suggest"
)

// completeEvents completes shell and gateway event names.
func completeEvents(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return filterPrefix(eventNames(f, cmd), toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// eventNames are every shell and gateway event name.
func eventNames(f *Factory, cmd *cobra.Command) []string {
	var names []string
	if s, err := f.Load(cmd); err == nil {
		names = s.Catalogue.Names()
	} else {
		names = catalog.NewCatalogue(nil).Names()
	}
	return append(names, catalog.GatewayEventNames()...)
}

// completeEventArg completes the first positional argument as an event to
// fire (test, run-event): command:* is no event a firing can take, so the
// slash commands are offered in its place (command:model, command:reset …).
func completeEventArg(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var names []string
		for _, n := range eventNames(f, cmd) {
			if n == "command:*" {
				names = append(names, catalog.SlashCommandEvents()...)
			} else {
				names = append(names, n)
			}
		}
		return filterPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeShellEventArg completes the first argument with the events a
// shell hook can serve (new, add), and nothing after it.
func completeShellEventArg(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeShellEvents(f)(cmd, args, toComplete)
	}
}

// completeShellEvents completes the events a shell hook can serve (no
// gateway events: they need no approval), as for accept --event.
func completeShellEvents(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		cat := catalog.NewCatalogue(nil)
		if s, err := f.Load(cmd); err == nil {
			cat = s.Catalogue
		}
		var names []string
		for _, ev := range cat.Events() {
			if ev.ShellSupported {
				names = append(names, ev.Name)
			}
		}
		return filterPrefix(names, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeCommands completes the configured shell-hook commands.
func completeCommands(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		s, err := f.Load(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		seen := map[string]bool{}
		var out []string
		for _, spec := range s.Parsed.Specs {
			// As written: an expanded secret must not land on the
			// command line (accept and diff take either form).
			if c := spec.Shown(); !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		return filterPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeConfigCommands completes the shell-hook commands as written in
// the config file (unexpanded): what delete matches.
func completeConfigCommands(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		loc, err := f.Locate(cmd)
		if err != nil || loc.ConfigPath == "" {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		data, _, err := edit.ReadFile(loc.ConfigPath)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		seen := map[string]bool{}
		var out []string
		for _, c := range hookspec.ConfiguredCommands(data) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		return filterPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// completeApprovedCommands completes the commands in the allowlist: what
// revoke can remove, configured or not.
func completeApprovedCommands(f *Factory) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		loc, err := f.Locate(cmd)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		list, _, err := allowlist.Open(loc.Home).Read()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		// Entries of configured hooks are offered as written (revoke takes
		// either form), so an expanded secret is not put on the command
		// line. Others as stored: that is the string revoke removes.
		shown := func(e allowlist.Entry) string { return e.Command }
		if s, err := hooks.Load(f.request()); err == nil {
			written := map[allowlist.Key]string{}
			for _, spec := range s.Parsed.Specs {
				written[allowlist.Key{Event: spec.Event, Command: spec.Command}] = spec.Shown()
			}
			shown = func(e allowlist.Entry) string {
				if w, ok := written[e.Key()]; ok {
					return w
				}
				return e.Command
			}
		}
		seen := map[string]bool{}
		var out []string
		for _, e := range list.Approvals {
			if c := shown(e); !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
		return filterPrefix(out, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

func filterPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// unknownEventError is the usage error for an event name this build does
// not know, with the closest known name.
func unknownEventError(s *hooks.Setup, name string) error {
	names := s.Catalogue.Names()
	if catalog.IsGatewayEvent(name) {
		names = catalog.GatewayEventNames()
	}
	// Quoted: a stray space or a look-alike must be visible.
	if sug := suggest.Name(name, names); sug != "" && sug != name {
		return usageErrorf("Unknown event: %q — did you mean %q? (see 'hermes hooks events')", name, sug)
	}
	return usageErrorf("Unknown event: %q (see 'hermes hooks events' for the list)", name)
}
