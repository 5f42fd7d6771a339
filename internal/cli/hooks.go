package cli

import (
	"github.com/spf13/cobra"
)

// newCmdHooks builds `hermes hooks` with every subcommand, or with only
// the one named only (NewRootCmdFor).
func newCmdHooks(f *Factory, only string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "Manage the agent's shell hooks, gateway hooks and webhooks",
		// Cobra only applies its default (2) on the root; without it a
		// typo such as "lsit" gets no suggestion.
		SuggestionsMinimumDistance: 2,
		Long: `Inspect, approve, test and fire the hooks of the Hermes agent.

Shell hooks are declared in the hooks: block of the config file and need
consent per (event, command), kept in shell-hooks-allowlist.json.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	cmd.SetHelpTemplate(cmd.HelpTemplate() + "\n" + exitCodeTable + "\n")
	for _, sub := range hooksCommands {
		if only == "" || sub.name == only {
			cmd.AddCommand(sub.build(f))
		}
	}
	return cmd
}

// hooksCommands are the subcommands of `hooks`, in the order help lists
// them, each built only when asked for: building all of them (their flags,
// help, completions) is a cost every run-event would pay for one.
var hooksCommands = []struct {
	name  string
	build func(*Factory) *cobra.Command
}{
	{"list", func(f *Factory) *cobra.Command { return newCmdList(f, nil) }},
	{"events", func(f *Factory) *cobra.Command { return newCmdEvents(f, nil) }},
	{"accept", func(f *Factory) *cobra.Command { return newCmdAccept(f, nil) }},
	{"revoke", func(f *Factory) *cobra.Command { return newCmdRevoke(f, nil) }},
	{"test", func(f *Factory) *cobra.Command { return newCmdTest(f, nil) }},
	{"run-event", func(f *Factory) *cobra.Command { return newCmdRunEvent(f, nil) }},
	{"diff", func(f *Factory) *cobra.Command { return newCmdDiff(f, nil) }},
	{"edit", func(f *Factory) *cobra.Command { return newCmdEdit(f, nil) }},
	{"doctor", func(f *Factory) *cobra.Command { return newCmdDoctor(f, nil) }},
	{"lock", func(f *Factory) *cobra.Command { return newCmdLock(f, nil) }},
	{"scan", func(f *Factory) *cobra.Command { return newCmdScan(f, nil) }},
	{"approvals", func(f *Factory) *cobra.Command { return newCmdApprovals(f, nil) }},
	{"prune", func(f *Factory) *cobra.Command { return newCmdPrune(f, nil) }},
	{"new", func(f *Factory) *cobra.Command { return newCmdNew(f, nil) }},
	{"add", func(f *Factory) *cobra.Command { return newCmdAdd(f, nil) }},
	{"delete", func(f *Factory) *cobra.Command { return newCmdDelete(f, nil) }},
	{"protect", func(f *Factory) *cobra.Command { return newCmdProtect(f, nil) }},
	{"unprotect", func(f *Factory) *cobra.Command { return newCmdUnprotect(f, nil) }},
	{"disable", func(f *Factory) *cobra.Command { return newCmdDisable(f, nil) }},
	{"enable", func(f *Factory) *cobra.Command { return newCmdEnable(f, nil) }},
	{"import", newCmdImport},
	{"log", func(f *Factory) *cobra.Command { return newCmdLog(f, nil) }},
	{"stats", func(f *Factory) *cobra.Command { return newCmdStats(f, nil) }},
	{"cases", newCmdCases},
}
