package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
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
	if opts.Command, err = typedCommand(s.Parsed.Specs, opts.Command, opts.Event, s.UserHome, "--event"); err != nil {
		return err
	}
	env := configEnv(s)
	// With --revoke, consent goes first (SPEC §22): a run killed between
	// the two files then leaves a hook that no longer fires, never an
	// approval that would pre-approve the command if it came back. The
	// command as given is revoked too, so a re-run clears what a killed
	// run left even when the config no longer has the hook.
	revoked := 0
	revokedKeys := map[[2]string]bool{}
	revoke := func(refs []hookspec.ConfigRef, given bool) error {
		n := 0
		warnings, err := s.Store.Update(func(l *allowlist.List) error {
			n = 0
			for _, r := range refs {
				// The allowlist holds the command as the agent saw it:
				// expanded.
				for _, c := range uniq(config.ExpandEnv(r.Command, env), r.Command) {
					n += l.RevokeEvent(r.Event, c)
				}
			}
			if given {
				for _, c := range uniq(config.ExpandEnv(opts.Command, env), opts.Command) {
					if opts.Event != "" {
						n += l.RevokeEvent(opts.Event, c)
					} else {
						n += l.Revoke(c)
					}
				}
			}
			if n == 0 {
				return allowlist.ErrUnchanged
			}
			return nil
		})
		printWarnings(ios, nil, warnings)
		if err != nil && !errors.Is(err, allowlist.ErrUnchanged) {
			return err
		}
		revoked += n
		for _, r := range refs {
			revokedKeys[[2]string{r.Event, r.Command}] = true
		}
		return nil
	}
	if opts.Revoke {
		var planned []hookspec.ConfigRef
		if target, err := edit.Target(configFile(s)); err == nil {
			if src, _, err := edit.ReadFile(target); err == nil {
				_, planned, _ = hookspec.RemoveFromConfig(src, opts.Command, opts.Event, env)
			}
		}
		if err := revoke(planned, true); err != nil {
			return fmt.Errorf("revoking the approvals failed, so %s was not changed: %w", configName(s), err)
		}
	}
	var removed []hookspec.ConfigRef
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		out, r, err := hookspec.RemoveFromConfig(old, opts.Command, opts.Event, env)
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
		if revoked > 0 {
			// A re-run after a killed delete --revoke: the config was done,
			// the approvals were not.
			if opts.JSON {
				return writeJSON(ios.Out, deleteJSON{editJSON: editJSON{where(s.Loc), false, ""}, RemovedEntries: []eventCommandJSON{}, Revoked: revoked})
			}
			fmt.Fprintf(ios.Out, "%s No shell hook with command %s%s in %s; removed %d allowlist entry/entries left for it. Allowlist: %s\n",
				ios.Colors().SuccessIcon(), esc(opts.Command), esc(scope), esc(configName(s)), revoked, esc(s.Store.Path))
			return nil
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
		if revoked > 0 {
			return fmt.Errorf("their approvals were revoked (%d allowlist entry/entries), but removing the hooks from the config failed: %w", revoked, err)
		}
		return err
	}
	if opts.Revoke {
		// Hooks added between the first read and the edit (by another
		// hermes) were removed too: withdraw their consent as well.
		var late []hookspec.ConfigRef
		for _, r := range removed {
			if !revokedKeys[[2]string{r.Event, r.Command}] {
				late = append(late, r)
			}
		}
		if len(late) > 0 {
			if err := revoke(late, false); err != nil {
				return fmt.Errorf("the hooks were removed from %s, but revoking the approvals of %d of them failed: %w", res.Path, len(late), err)
			}
		}
	}
	if opts.JSON {
		out := deleteJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, RemovedEntries: []eventCommandJSON{}, Revoked: revoked}
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
	case approvedAny(s, removed, env):
		fmt.Fprintln(ios.Out, "Their approvals stay in the allowlist (stale); pass --revoke to remove them, or run 'hermes hooks revoke'.")
	}
	fmt.Fprintln(ios.Out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
	return nil
}

// approvedAny reports whether the allowlist holds an approval of one of
// the removed hooks: only then is there something left behind to mention
// (SPEC §28 item 10). An allowlist that cannot be read counts as holding
// one, so the hint is given rather than lost.
func approvedAny(s *hooks.Setup, removed []hookspec.ConfigRef, env config.Env) bool {
	list, _, err := s.Store.Read()
	if err != nil {
		return true
	}
	for _, r := range removed {
		for _, c := range uniq(config.ExpandEnv(r.Command, env), r.Command) {
			if _, ok := list.Find(r.Event, c); ok {
				return true
			}
		}
	}
	return false
}

// uniq is a and b, b only when it differs.
func uniq(a, b string) []string {
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}
