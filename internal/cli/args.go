package cli

import (
	"fmt"
	"strings"

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

// exactArgs is cobra.ExactArgs with a message saying what is missing.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErrorf("%s needs %s (got %d argument(s))", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}

// unknownCommand is the usage error for a word that names no subcommand of
// cmd, with Cobra's suggestions.
func unknownCommand(cmd *cobra.Command, word string) *UsageError {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
	}
	return &UsageError{msg: msg}
}
