package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// protectOptions serve protect and unprotect (Unprotect true).
type protectOptions struct {
	f         *Factory
	Unprotect bool
	Commands  []string
	All       bool
	DryRun    bool
	JSON      bool
}

func newCmdProtect(f *Factory, runF func(*protectOptions) error) *cobra.Command {
	return protectCommand(f, runF, false)
}

func newCmdUnprotect(f *Factory, runF func(*protectOptions) error) *cobra.Command {
	return protectCommand(f, runF, true)
}

func protectCommand(f *Factory, runF func(*protectOptions) error, unprotect bool) *cobra.Command {
	opts := &protectOptions{f: f, Unprotect: unprotect}
	cmd := &cobra.Command{
		Use:   "protect [COMMAND...]",
		Short: "Make the agent run shell hooks through hermes-guard, which refuses a changed script",
		Long: `Rewrite the selected shell hooks' commands in the config file to run through
hermes-guard, the small program installed beside hermes:

    <dir of hermes>/hermes-guard --event E [--fail-closed] -- COMMAND

At every firing by the agent, the guard runs COMMAND only when its script is
the one approved (sha256), nobody else can change it and the path rules hold,
exactly as run-event decides; otherwise it refuses (a block for a fail-closed
pre_tool_call hook). Every run and refusal is one line in the audit log.

The approval is carried over to the wrapped command (approved_via "protect",
same sha256), so the agent registers it without asking. A hook that is not
approved, or whose script changed since approval, is not protected (exit 1).
Comments and every other line of the config stay as they are.`,
		Example: `  hermes hooks protect --all
  hermes hooks protect '~/.hermes/agent-hooks/guard.sh' --dry-run`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Commands = args
			if len(args) == 0 && !opts.All {
				return usageErrorf("name the hooks' commands, or pass --all")
			}
			if len(args) > 0 && opts.All {
				return usageErrorf("give commands or --all, not both")
			}
			if runF != nil {
				return runF(opts)
			}
			return protectRun(cmd, opts)
		},
	}
	if unprotect {
		cmd.Use = "unprotect [COMMAND...]"
		cmd.Short = "Let the agent run protected shell hooks directly again"
		cmd.Long = `Reverse protect: the selected hooks' commands in the config file lose their
hermes-guard prefix, and the approval of the wrapped command is carried back
to the bare one (approved_via "unprotect", same sha256). Comments and every
other line of the config stay as they are.`
		cmd.Example = `  hermes hooks unprotect --all --dry-run`
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.All, "all", false, "every shell hook of the config")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.ValidArgsFunction = completeConfigCommands(f)
	return cmd
}

type protectJSON struct {
	editJSON
	Protected   *[]rewrapJSON `json:"protected,omitempty"`
	Unprotected *[]rewrapJSON `json:"unprotected,omitempty"`
	Refused     []refusedJSON `json:"refused"`
}

type rewrapJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Wrapped string `json:"wrapped"`
}

type refusedJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	Reason  string `json:"reason"`
}

// errNothingToRewrite stops the config edit when no hook changes.
var errNothingToRewrite = errors.New("nothing to rewrite")

func protectRun(cmd *cobra.Command, opts *protectOptions) error {
	s, list, err := opts.f.loadAndRead(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	env := configEnv(s)
	specs, refused := selectSpecs(s.Parsed.Specs, opts)
	var plan []hooks.Rewrap
	if opts.Unprotect {
		plan = s.PlanUnprotect(specs, list, env)
	} else {
		path, err := guardPath()
		if err != nil {
			return err
		}
		var r []hooks.Refused
		plan, r = s.PlanProtect(specs, list, path, env)
		refused = append(refused, r...)
	}

	res := &configEdit{Path: s.Loc.ConfigPath, DryRun: opts.DryRun}
	if len(plan) > 0 {
		if !opts.DryRun {
			// The new command's approval first (the wrapped one for
			// protect, the bare one for unprotect, SPEC §24 item 8): were
			// the edit to fail or be killed, an unused approval is left,
			// never a hook the agent would not register; a re-run does
			// what is left.
			if err := carryApprovals(opts.f, s, plan, false); err != nil {
				return err
			}
		}
		res, err = editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
			return hooks.RewriteCommands(old, plan)
		})
		if err != nil {
			return err
		}
		if !opts.DryRun {
			if err := carryApprovals(opts.f, s, plan, true); err != nil {
				return fmt.Errorf("the config %s was rewritten, but carrying the approvals over failed: %w", res.Path, err)
			}
		}
	}

	if opts.JSON {
		out := protectJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff}, Refused: []refusedJSON{}}
		rows := []rewrapJSON{}
		for _, r := range plan {
			rows = append(rows, rewrapJSON{r.Event, r.Inner(!opts.Unprotect), r.Wrapped(!opts.Unprotect)})
		}
		if opts.Unprotect {
			out.Unprotected = &rows
		} else {
			out.Protected = &rows
		}
		for _, r := range refused {
			out.Refused = append(out.Refused, refusedJSON(r))
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		verb := "protected"
		if opts.Unprotect {
			verb = "unprotected"
		}
		if len(plan) > 0 {
			reportEdit(opts.f, s, res, fmt.Sprintf("%s %d hook(s) in %s", verb, len(plan), res.Path))
			if !opts.DryRun {
				for _, r := range plan {
					fmt.Fprintf(ios.Out, "  %s  %s\n", esc(r.Event), esc(r.Inner(!opts.Unprotect)))
				}
				fmt.Fprintln(ios.Out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
			}
		} else if len(refused) == 0 {
			fmt.Fprintf(ios.ErrOut, "No hook to %s: the hooks selected are %s already; nothing was written\n",
				strings.TrimSuffix(verb, "ed"), verb)
		}
		for _, r := range refused {
			fmt.Fprintf(ios.ErrOut, "%s not %s: %s hook %s: %s\n", ios.Colors().FailureIcon(), verb, esc(r.Event), esc(r.Command), esc(r.Reason))
		}
	}
	if len(refused) > 0 {
		return SilentError
	}
	return nil
}

// selectSpecs picks the shell hooks named (by the command as written, as
// expanded, or the command a guard runs) or every one with --all; a name
// that matches no hook is refused.
func selectSpecs(specs []hookspec.Spec, opts *protectOptions) ([]hookspec.Spec, []hooks.Refused) {
	if opts.All {
		return specs, nil
	}
	var out []hookspec.Spec
	var refused []hooks.Refused
	for _, c := range opts.Commands {
		found := false
		for _, sp := range specs {
			if sp.Names(c) {
				found = true
				if !slices.ContainsFunc(out, func(x hookspec.Spec) bool { return x.Event == sp.Event && x.Index == sp.Index }) {
					out = append(out, sp)
				}
			}
		}
		if !found {
			refused = append(refused, hooks.Refused{Command: c, Reason: "no shell hook in the config has this command (see 'hermes hooks list')"})
		}
	}
	return out, refused
}

// carryApprovals writes the plan's new approvals (dropOld false) or removes
// the old ones (dropOld true), under the allowlist's lock.
func carryApprovals(f *Factory, s *hooks.Setup, plan []hooks.Rewrap, dropOld bool) error {
	warnings, err := s.Store.Update(func(l *allowlist.List) error {
		changed := false
		for _, r := range plan {
			switch {
			case !r.HasOld:
			case dropOld:
				if l.RevokeEvent(r.Old.Event, r.Old.Command) > 0 {
					changed = true
				}
			default:
				l.Approve(r.New)
				changed = true
			}
		}
		if !changed {
			return allowlist.ErrUnchanged
		}
		return nil
	})
	printWarnings(f.IO, nil, warnings)
	if errors.Is(err, allowlist.ErrUnchanged) {
		return nil
	}
	return err
}
