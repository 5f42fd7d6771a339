package cli

import (
	"github.com/spf13/cobra"
)

func newCmdHooks(f *Factory) *cobra.Command {
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
	cmd.AddCommand(
		newCmdList(f, nil),
		newCmdEvents(f, nil),
		newCmdAccept(f, nil),
		newCmdRevoke(f, nil),
		newCmdTest(f, nil),
		newCmdRunEvent(f, nil),
		newCmdDiff(f, nil),
		newCmdDoctor(f, nil),
		newCmdLock(f, nil),
		newCmdApprovals(f, nil),
		newCmdPrune(f, nil),
		newCmdNew(f, nil),
		newCmdAdd(f, nil),
		newCmdDelete(f, nil),
		newCmdProtect(f, nil),
		newCmdUnprotect(f, nil),
		newCmdImport(f),
		newCmdLog(f, nil),
		newCmdStats(f, nil),
		newCmdCases(f),
	)
	return cmd
}
