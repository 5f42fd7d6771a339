package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// selectFlags are --only and --skip (run-event and test): the hooks to
// fire, by exact command string as written in the config.
type selectFlags struct {
	Only []string
	Skip []string
}

func (s *selectFlags) register(cmd *cobra.Command, f *Factory) {
	fl := cmd.Flags()
	// StringArray, not StringSlice: a command may contain commas.
	fl.StringArrayVar(&s.Only, "only", nil, "fire only the hook whose command is exactly `COMMAND` as written in the config (repeatable)")
	fl.StringArrayVar(&s.Skip, "skip", nil, "do not fire the hook whose command is exactly `COMMAND` (repeatable)")
	complete := func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return completeCommands(f)(cmd, nil, toComplete)
	}
	_ = cmd.RegisterFlagCompletionFunc("only", complete)
	_ = cmd.RegisterFlagCompletionFunc("skip", complete)
}

// refuseGateway refuses --only and --skip on a gateway event: they name shell hooks.
func (s *selectFlags) refuseGateway(event string) error {
	if catalog.IsGatewayEvent(event) && len(s.Only)+len(s.Skip) > 0 {
		return usageErrorf("--only and --skip choose shell hooks by command; %q is a gateway event, whose hooks have none", event)
	}
	return nil
}

func (s *selectFlags) selection() hooks.Selection {
	return hooks.Selection{Only: s.Only, Skip: s.Skip}
}

// check refuses a --only or --skip that names none of specs (the hooks
// that could fire; scope says which, for the message): a typo must not
// fire everything, or nothing, silently. It needs only the commands, so
// nothing is inspected (no script is read) to check a selection. A
// command typed with an unquoted ~ (the shell expanded it) is first
// replaced by the configured command it names (typedCommand).
func (s *selectFlags) check(specs []hookspec.Spec, scope, home string) error {
	for _, list := range [][]string{s.Only, s.Skip} {
		for i, c := range list {
			var err error
			if list[i], err = typedCommand(specs, c, "", home, ""); err != nil {
				return err
			}
		}
	}
	unmatched := s.selection().Unmatched(specs)
	if len(unmatched) == 0 {
		return nil
	}
	var known []string
	seen := map[string]bool{}
	for _, h := range specs {
		if c := h.Shown(); !seen[c] {
			seen[c] = true
			known = append(known, fmt.Sprintf("%q", c))
		}
	}
	list := "none"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	quoted := make([]string, len(unmatched))
	for i, c := range unmatched {
		quoted[i] = fmt.Sprintf("%q", c)
	}
	return usageErrorf("--only/--skip %s: no configured %s hook has this command (give it exactly as written in the config; configured: %s)",
		strings.Join(quoted, ", "), scope, list)
}
