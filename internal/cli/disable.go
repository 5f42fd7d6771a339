package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// disableOptions serve disable and enable (Enable true).
type disableOptions struct {
	f        *Factory
	Enable   bool
	Commands []string
	Event    string
	All      bool
	DryRun   bool
	JSON     bool
}

func newCmdDisable(f *Factory, runF func(*disableOptions) error) *cobra.Command {
	return disableCommand(f, runF, false)
}

func newCmdEnable(f *Factory, runF func(*disableOptions) error) *cobra.Command {
	return disableCommand(f, runF, true)
}

func disableCommand(f *Factory, runF func(*disableOptions) error, enable bool) *cobra.Command {
	opts := &disableOptions{f: f, Enable: enable}
	cmd := &cobra.Command{
		Use:   "disable [COMMAND...]",
		Short: "Switch shell hooks off without deleting them",
		Long: `Move the selected shell hooks out of hooks: into a top-level hooks_disabled:
block of the same shape, each entry with its comments, so the agent no
longer registers them (it ignores that key; an "enabled: false" inside an
entry would not stop it, the agent ignores unknown keys there too).

Select hooks by command (as written, as expanded, or the command a protected
hook guards), by --event, or all of them with --all; a command configured
under two events is disabled under both unless --event says which. An event
whose list is left empty loses its key. Approvals are kept, and a protected
hook moves wrapped (it stays protected). 'hermes hooks enable' moves them
back. The edit holds the config lock; every other line stays as it is.`,
		Example: `  hermes hooks disable '~/.hermes/agent-hooks/notify.sh'
  hermes hooks disable --event post_tool_call --dry-run
  hermes hooks disable --all`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Commands = args
			if len(args) == 0 && !opts.All && opts.Event == "" {
				return usageErrorf("name the hooks' commands, or pass --event or --all")
			}
			if len(args) > 0 && opts.All {
				return usageErrorf("give commands or --all, not both")
			}
			if runF != nil {
				return runF(opts)
			}
			return disableRun(cmd, opts)
		},
	}
	if enable {
		cmd.Use = "enable [COMMAND...]"
		cmd.Short = "Switch disabled shell hooks back on"
		cmd.Long = `Move the selected hooks of hooks_disabled: back into their event's list under
hooks: — at their old place when the neighbours they were recorded beside
are unchanged, else at the end of the list (the event's key written back
when it had gone) — so enabling what was disabled restores the file byte
for byte. hooks_disabled: goes when it is left empty. Their approvals were
kept, so the agent registers them again without asking. The edit holds the
config lock; every other line stays as it is.`
		cmd.Example = `  hermes hooks enable --all
  hermes hooks enable '~/.hermes/agent-hooks/notify.sh' --dry-run`
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "every hook (of --event when given)")
	fl.StringVar(&opts.Event, "event", "", "only hooks of event `E`")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.ValidArgsFunction = completeConfigCommands(f)
	return cmd
}

// disableJSON is `disable --json` and `enable --json` (docs/json.md).
type disableJSON struct {
	editJSON
	Disabled *[]hookRefJSON `json:"disabled,omitempty"`
	Enabled  *[]hookRefJSON `json:"enabled,omitempty"`
	Refused  []refusedJSON  `json:"refused"`
}

type hookRefJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
}

func disableRun(cmd *cobra.Command, opts *disableOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	env := configEnv(s)
	sel := hookspec.Selection{Commands: opts.Commands, Event: opts.Event, All: opts.All || len(opts.Commands) == 0}
	move, verb, from := hookspec.DisableInConfig, "disabled", "hooks:"
	if opts.Enable {
		move, verb, from = hookspec.EnableInConfig, "enabled", "hooks_disabled:"
	}
	var moved []hookspec.ConfigRef
	var unmatched []string
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		out, refs, un, err := move(old, sel, env)
		moved, unmatched = refs, un
		if err == nil && len(refs) == 0 {
			return old, errNothingToMove
		}
		return out, err
	})
	if err != nil && !errors.Is(err, errNothingToMove) {
		return err
	}
	if res == nil {
		res = &configEdit{Path: s.Loc.ConfigPath, DryRun: opts.DryRun}
	}
	refused := []refusedJSON{}
	for _, c := range unmatched {
		refused = append(refused, refusedJSON{Event: opts.Event, Command: c,
			Reason: fmt.Sprintf("no shell hook under %s has this command (see 'hermes hooks list')", from)})
	}
	if opts.JSON {
		out := disableJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, Refused: refused}
		rows := []hookRefJSON{}
		for _, m := range moved {
			rows = append(rows, hookRefJSON(m))
		}
		if opts.Enable {
			out.Enabled = &rows
		} else {
			out.Disabled = &rows
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		if len(moved) > 0 {
			reportEdit(opts.f, s, res, fmt.Sprintf("%s %d hook(s) in %s", verb, len(moved), res.Path))
			if !opts.DryRun {
				for _, m := range moved {
					fmt.Fprintf(ios.Out, "  %s  %s\n", esc(m.Event), esc(m.Command))
				}
				fmt.Fprintln(ios.Out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
			}
		} else if len(refused) == 0 {
			fmt.Fprintf(ios.ErrOut, "No hook to %s: none is selected under %s; nothing was written\n", verb[:len(verb)-1], from)
		}
		for _, r := range refused {
			fmt.Fprintf(ios.ErrOut, "%s not %s: %s: %s\n", ios.Colors().FailureIcon(), verb, esc(r.Command), esc(r.Reason))
		}
	}
	if len(refused) > 0 || len(moved) == 0 {
		return SilentError
	}
	return nil
}

// errNothingToMove stops the config edit when no hook is selected.
var errNothingToMove = errors.New("nothing to move")
