package cli

import (
	"errors"
	"fmt"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/spf13/cobra"
)

type diffOptions struct {
	f       *Factory
	Command string
	Event   string
	JSON    bool
	// Lock compares with the lock's sha256 instead of the approval's
	// snapshot (diff_lock.go).
	Lock string
}

func newCmdDiff(f *Factory, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{f: f}
	cmd := &cobra.Command{
		Use:   "diff <command>",
		Short: "Show how a hook's script changed since it was approved",
		Long: `Unified diff between the snapshot of the script taken at approval and the
script now. Exit codes as diff(1): 0 unchanged, 1 changed (diff printed) or
cannot compare (not approved, no snapshot, script missing), 2 usage.

With --lock FILE (written by 'hermes hooks lock'): compare with what the lock
says was reviewed instead — the lock's sha256, the script's, and the script
itself, since the lock keeps no text. This works where nothing was approved,
as in CI after 'accept --from-lock' refused a hook.`,
		Example: `  hermes hooks diff '~/.hermes/agent-hooks/guard.sh'
  hermes hooks diff --lock hooks.lock.json '~/.hermes/agent-hooks/guard.sh'`,
		Args: exactArgs(1, "a command (the exact string from the config)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Command = args[0]
			if runF != nil {
				return runF(opts)
			}
			return diffRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Event, "event", "", "the hook of this `EVENT` when the command serves several")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.Flags().StringVar(&opts.Lock, "lock", "", "compare with the sha256 the lock `FILE` records (see 'hermes hooks lock')")
	cmd.ValidArgsFunction = completeCommands(f)
	_ = cmd.RegisterFlagCompletionFunc("event", completeShellEvents(f))
	return cmd
}

type diffJSON struct {
	whereJSON
	commandJSON
	Event     string  `json:"event"`
	Script    *string `json:"script"`
	Status    string  `json:"status"` // unchanged | changed | cannot_compare
	Reason    *string `json:"reason"`
	OldSHA256 *string `json:"approved_sha256"`
	NewSHA256 *string `json:"current_sha256"`
	Diff      *string `json:"diff"`
}

func diffRun(cmd *cobra.Command, opts *diffOptions) error {
	s, list, err := opts.f.loadAndRead(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	if opts.Command, err = typedCommand(s.Parsed.Specs, opts.Command, opts.Event, s.UserHome, "--event"); err != nil {
		return err
	}
	var h *hooks.ShellHook
	for _, spec := range s.Parsed.Specs {
		if spec.Names(opts.Command) && (opts.Event == "" || spec.Event == opts.Event) {
			hh := s.Inspect(spec, list)
			// Prefer an approved one when the command serves several events.
			if h == nil || (!h.Approved && hh.Approved) {
				h = &hh
			}
		}
	}
	if h == nil {
		return usageErrorf("command %q is not configured in %s; check the exact string with 'hermes hooks list'", opts.Command, configName(s))
	}
	if opts.Lock != "" {
		return diffLock(opts, s, *h)
	}
	d, derr := s.DiffScript(*h)
	out := diffJSON{whereJSON: where(s.Loc), commandJSON: commandOf(h.Spec),
		Event: h.Event, Script: pyjson.NullIfEmpty(h.Script)}
	switch {
	case derr != nil:
		if !errors.Is(derr, hooks.ErrNotApproved) && !errors.Is(derr, hooks.ErrNoSnapshot) && !errors.Is(derr, hooks.ErrScriptMissing) {
			return derr
		}
		out.Status, out.Reason = "cannot_compare", pyjson.NullIfEmpty(derr.Error())
	case d.Changed:
		out.Status = "changed"
		out.OldSHA256, out.NewSHA256, out.Diff = &d.OldSHA, &d.NewSHA, &d.Unified
	default:
		out.Status = "unchanged"
		out.OldSHA256, out.NewSHA256 = &d.OldSHA, &d.NewSHA
	}
	if opts.JSON {
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		printLocation(ios.Out, s.Loc)
		fmt.Fprintln(ios.Out)
		switch out.Status {
		case "cannot_compare":
			fmt.Fprintf(ios.ErrOut, "Cannot compare: %s\n", esc(derr.Error()))
		case "changed":
			fmt.Fprint(ios.Out, colorDiff(ios.Colors(), d.Unified))
		default:
			fmt.Fprintf(ios.Out, "No change: %s is as approved (sha256 %s).\n", esc(h.Script), d.NewSHA)
		}
	}
	if out.Status == "unchanged" {
		return nil
	}
	return &ExitError{Code: ExitFailed}
}

// scriptDiff is the coloured diff of a modified approved hook, or "".
func scriptDiff(f *Factory, s *hooks.Setup, h hooks.ShellHook) string {
	d, err := s.DiffScript(h)
	if err != nil {
		return "  (" + esc(err.Error()) + ")\n"
	}
	if !d.Changed {
		return ""
	}
	return colorDiff(f.IO.Colors(), d.Unified)
}
