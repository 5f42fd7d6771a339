package cli

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

type revokeOptions struct {
	f       *Factory
	Command string
	JSON    bool
}

func newCmdRevoke(f *Factory, runF func(*revokeOptions) error) *cobra.Command {
	opts := &revokeOptions{f: f}
	cmd := &cobra.Command{
		Use:     "revoke <command>",
		Aliases: []string{"remove", "rm"},
		Short:   "Withdraw consent for a shell hook command",
		Long: `Remove every allowlist entry for the exact command string, whatever its event.
Exit 1 when no entry matched (the file is then left untouched).`,
		Args: exactArgs(1, "a command (the exact string from the config)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Command = args[0]
			if runF != nil {
				return runF(opts)
			}
			return revokeRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.ValidArgsFunction = completeApprovedCommands(f)
	return cmd
}

type revokeJSON struct {
	whereJSON
	Command string `json:"command"`
	Removed int    `json:"removed"`
}

func revokeRun(cmd *cobra.Command, opts *revokeOptions) error {
	// Revoking needs only the home, not a readable config.
	loc, err := opts.f.Locate(cmd)
	if err != nil {
		return err
	}
	if err := loc.CheckWritable(); err != nil {
		return err
	}
	ios := opts.f.IO
	removed := 0
	store := opts.f.Store(cmd, loc.Home)
	// The config is read for the command's other forms only: revoking
	// must work without one.
	var specs []hookspec.Spec
	if setup, err := hooks.Load(opts.f.request()); err == nil {
		specs = setup.Parsed.Specs
	}
	if opts.Command, err = typedCommand(specs, opts.Command, "", opts.f.UserHome(), ""); err != nil {
		return err
	}
	commands := revokeForms(specs, opts.Command)
	warnings, err := store.Update(func(l *allowlist.List) error {
		for _, c := range commands {
			removed += l.Revoke(c)
		}
		if removed == 0 {
			return allowlist.ErrUnchanged
		}
		return nil
	})
	printWarnings(ios, nil, warnings)
	if err != nil && !errors.Is(err, allowlist.ErrUnchanged) {
		return err
	}
	if opts.JSON {
		if err := writeJSON(ios.Out, revokeJSON{where(loc), opts.Command, removed}); err != nil {
			return err
		}
	} else if removed > 0 {
		printLocation(ios.Out, loc)
		fmt.Fprintln(ios.Out)
		noun := "entry"
		if removed > 1 {
			noun = "entries"
		}
		fmt.Fprintf(ios.Out, "Removed %d allowlist %s for: %s\n", removed, noun, esc(opts.Command))
		fmt.Fprintf(ios.Out, "Allowlist: %s\n", esc(store.Path))
		fmt.Fprintln(ios.Out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
	}
	if removed == 0 {
		// Naming the file helps when the wrong home or profile was used.
		fmt.Fprintf(ios.ErrOut, "No allowlist entry found for command: %s\nAllowlist: %s\n", esc(opts.Command), esc(store.Path))
		return SilentError
	}
	return nil
}

// revokeForms are the allowlist commands to revoke for cmd: cmd itself
// and, when cmd is a command as written in the config (${API_TOKEN}
// unexpanded), what it expands to, which is what the allowlist holds. A
// config that cannot be read (specs nil) only loses the second form.
func revokeForms(specs []hookspec.Spec, cmd string) []string {
	out := []string{cmd}
	for _, spec := range specs {
		// As written, or the command a protected hook's guard runs: the
		// allowlist holds the (expanded) wrapped command.
		named := spec.Written == cmd || spec.Protected() && spec.Names(cmd)
		if named && !slices.Contains(out, spec.Command) {
			out = append(out, spec.Command)
		}
	}
	return out
}
