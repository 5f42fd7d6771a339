package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

// flagSuggestion is " — did you mean --X?" for an unknown long flag within
// two edits of one the command takes (SPEC §28 item 8), else "". Cobra
// suggests commands, never flags.
func flagSuggestion(cmd *cobra.Command, err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || name == "" {
		return ""
	}
	name, _, _ = strings.Cut(name, "=")
	best, bestD := "", 3
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := suggest.Distance(strings.ToLower(name), f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" — did you mean --%s?", best)
}
