package cli

import (
	"github.com/spf13/cobra"
)

// noArgs is cobra.NoArgs for a command without subcommands: Cobra's own
// message ("unknown command "x" for ...") reads as if a subcommand was
// mistyped.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%s takes no arguments (got %q)", cmd.CommandPath(), args)
	}
	return nil
}
