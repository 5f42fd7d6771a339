package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

type deleteOptions struct {
	f       *Factory
	Command string
	Event   string
	Revoke  bool
	DryRun  bool
	JSON    bool
}

func newCmdDelete(f *Factory, runF func(*deleteOptions) error) *cobra.Command {
	opts := &deleteOptions{f: f}
	cmd := &cobra.Command{
		Use:   "delete <command>",
		Short: "Take a shell hook out of the config file",
		Long: `Remove the shell hooks whose command is COMMAND (as written in the config, or
after ${VAR} expansion) from the config file, of every event unless --event,
keeping every other line of the file as it is. With --revoke, their approvals
are withdrawn from the allowlist too. Exit 1 when no hook matched.

(revoke withdraws consent and leaves the config alone; delete takes the hook
out of the config.)`,
		Example: `  hermes hooks delete '${HERMES_HOME}/agent-hooks/guard.sh' --revoke
  hermes hooks delete 'python3 /opt/hooks/log.py' --event post_tool_call --dry-run`,
		Args: exactArgs(1, "a command (the exact string from the config)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Command = args[0]
			if opts.DryRun && opts.Revoke {
				// A preview must change nothing; say what --revoke would do
				// instead of silently ignoring it.
				opts.Revoke = false
				fmt.Fprintln(f.IO.ErrOut, "--dry-run: the allowlist is not changed either (--revoke ignored)")
			}
			if runF != nil {
				return runF(opts)
			}
			return deleteRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Event, "event", "", "only the hooks of this `EVENT`")
	fl.BoolVar(&opts.Revoke, "revoke", false, "also remove their approvals from the allowlist")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	_ = cmd.RegisterFlagCompletionFunc("event", completeShellEvents(f))
	cmd.ValidArgsFunction = completeConfigCommands(f)
	return cmd
}

type deleteJSON struct {
	editJSON
	// Removed counts the hooks removed, RemovedEntries lists them: a
	// count is a number and a list a list, everywhere (SPEC §20).
	Removed        int                `json:"removed"`
	RemovedEntries []eventCommandJSON `json:"removed_entries"`
	Revoked        int                `json:"revoked"`
}

type eventCommandJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
}

// errNoneMatched stops the edit when nothing would be removed.
var errNoneMatched = errors.New("no hook matched")

func deleteRun(cmd *cobra.Command, opts *deleteOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	if opts.Event != "" && !s.Catalogue.Has(opts.Event) {
		return unknownEventError(s, opts.Event)
	}
	var removed []hooks.ConfigRef
	res, err := editConfig(opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		out, r, err := hooks.RemoveFromConfig(old, opts.Command, opts.Event, configEnv(s))
		removed = r
		if err == nil && len(r) == 0 {
			err = errNoneMatched
		}
		return out, err
	})
	if errors.Is(err, errNoneMatched) {
		scope := ""
		if opts.Event != "" {
			scope = " for event " + opts.Event
		}
		if opts.JSON {
			if err := writeJSON(ios.Out, deleteJSON{editJSON: editJSON{where(s.Loc), false, ""}, RemovedEntries: []eventCommandJSON{}}); err != nil {
				return err
			}
		}
		fmt.Fprintf(ios.ErrOut, "No shell hook with command %s%s in %s; nothing was written (see 'hermes hooks list')\n",
			esc(opts.Command), esc(scope), esc(configName(s)))
		return SilentError
	}
	if err != nil {
		return err
	}
	revoked := 0
	if opts.Revoke {
		env := configEnv(s)
		warnings, err := s.Store.Update(func(l *allowlist.List) error {
			for _, r := range removed {
				// The allowlist holds the command as the agent saw it:
				// expanded.
				revoked += l.RevokeEvent(r.Event, config.ExpandEnv(r.Command, env))
				if exp := config.ExpandEnv(r.Command, env); exp != r.Command {
					revoked += l.RevokeEvent(r.Event, r.Command)
				}
			}
			if revoked == 0 {
				return allowlist.ErrUnchanged
			}
			return nil
		})
		printWarnings(ios, nil, warnings)
		if err != nil && !errors.Is(err, allowlist.ErrUnchanged) {
			return fmt.Errorf("the hooks were removed from %s, but revoking their approvals failed: %w", res.Path, err)
		}
	}
	if opts.JSON {
		out := deleteJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff}, RemovedEntries: []eventCommandJSON{}, Revoked: revoked}
		for _, r := range removed {
			out.RemovedEntries = append(out.RemovedEntries, eventCommandJSON{r.Event, r.Command})
		}
		out.Removed = len(out.RemovedEntries)
		return writeJSON(ios.Out, out)
	}
	reportEdit(opts.f, s, res, fmt.Sprintf("removed %d hook(s) from %s", len(removed), res.Path))
	if opts.DryRun {
		return nil
	}
	for _, r := range removed {
		fmt.Fprintf(ios.Out, "  %s  %s\n", esc(r.Event), esc(r.Command))
	}
	switch {
	case opts.Revoke:
		fmt.Fprintf(ios.Out, "Removed %d allowlist entry/entries. Allowlist: %s\n", revoked, esc(s.Store.Path))
	default:
		fmt.Fprintln(ios.Out, "Their approvals stay in the allowlist (stale); pass --revoke to remove them, or run 'hermes hooks revoke'.")
	}
	fmt.Fprintln(ios.Out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
	return nil
}
