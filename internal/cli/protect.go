package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// protectOptions serve protect and unprotect (Unprotect true).
type protectOptions struct {
	f         *Factory
	Unprotect bool
	Commands  []string
	All       bool
	DryRun    bool
	JSON      bool
	Force     bool
	// FailClosed (protect only): the selected pre_tool_call hooks get
	// fail_closed: true and a guard with --fail-closed (SPEC §25).
	FailClosed bool
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
	if !unprotect {
		fl.BoolVar(&opts.Force, "force", false, "protect a hook whose code cannot be pinned (as its command string), or with a guard that fails the ownership rule")
		fl.BoolVar(&opts.FailClosed, "fail-closed", false, "set fail_closed: true on the selected pre_tool_call hooks and guard them with --fail-closed, so that a crash, an exit with no answer or a refusal blocks the call")
	}
	cmd.ValidArgsFunction = completeConfigCommands(f)
	return cmd
}

type protectJSON struct {
	editJSON
	Protected   *[]rewrapJSON `json:"protected,omitempty"`
	Unprotected *[]rewrapJSON `json:"unprotected,omitempty"`
	// Repointed (protect only): protected hooks whose guard now is the
	// one beside this hermes (SPEC §28 item 4).
	Repointed *[]rewrapJSON `json:"repointed,omitempty"`
	Refused   []refusedJSON `json:"refused"`
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
	for i, c := range opts.Commands {
		if opts.Commands[i], err = typedCommand(s.Parsed.Specs, c, "", s.UserHome, ""); err != nil {
			return err
		}
	}
	specs, refused := selectSpecs(s.Parsed.Specs, opts)
	var plan []hooks.Rewrap
	if opts.Unprotect {
		plan = s.PlanUnprotect(specs, list, env)
	} else {
		path, err := guardPath()
		if err != nil {
			return err
		}
		if why := unsafeGuard(path); why != "" {
			if !opts.Force {
				return fmt.Errorf("not protected: %s; fix its owner or mode (the guard decides every hook it guards), or protect anyway with --force", why)
			}
			fmt.Fprintf(ios.ErrOut, "%s protecting with a guard that fails the ownership rule (--force): %s\n", ios.ErrColors().WarningIcon(), esc(why))
		}
		var r, forced []hooks.Refused
		if opts.FailClosed {
			specs = withFailClosed(specs)
		}
		plan, r, forced = s.PlanProtect(specs, list, path, env, opts.Force)
		refused = append(refused, r...)
		for _, f := range forced {
			fmt.Fprintf(ios.ErrOut, "%s %s hook %s is protected as its command string (--force): %s\n", ios.ErrColors().WarningIcon(), esc(f.Event), esc(f.Command), esc(notPinnableWarning(f.Reason)))
		}
		plan = append(plan, s.PlanRepoint(specs, list, path, env)...)
		if opts.FailClosed {
			more, r := s.PlanFailClosed(specs, list, env)
			plan, refused = hooks.WithFailClosed(plan, more, env), append(refused, r...)
		}
	}
	failClosed := failClosedCommands(opts, specs, plan, refused)

	res := &configEdit{Path: s.Loc.ConfigPath, DryRun: opts.DryRun}
	if len(plan) > 0 || len(failClosed) > 0 {
		if res, err = protectWrite(cmd, opts, s, plan, failClosed); err != nil {
			return err
		}
	}

	if opts.JSON {
		out := protectJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, Refused: []refusedJSON{}}
		rows, repointed := []rewrapJSON{}, []rewrapJSON{}
		for _, r := range plan {
			row := rewrapJSON{r.Event, r.Inner(!opts.Unprotect), r.Wrapped(!opts.Unprotect)}
			if r.Repointed {
				repointed = append(repointed, row)
			} else {
				rows = append(rows, row)
			}
		}
		if opts.Unprotect {
			out.Unprotected = &rows
		} else {
			out.Protected, out.Repointed = &rows, &repointed
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
			reportEdit(opts.f, s, res, rewrapSummary(verb, plan, res.Path))
			if !opts.DryRun {
				// Buffered: a write(2) per hook is 100,000 of them for
				// protect --all (SPEC §29 item 2); flushed before stderr.
				out := bufio.NewWriterSize(ios.Out, 64<<10)
				for _, r := range plan {
					if r.Repointed {
						continue
					}
					fmt.Fprintf(out, "  %s  %s\n", esc(r.Event), esc(r.Inner(!opts.Unprotect)))
				}
				for _, r := range plan {
					if r.Repointed {
						fmt.Fprintf(out, "  re-pointed  %s  %s  (its guard is now %s; the approval carried over)\n",
							esc(r.Event), esc(r.Inner(true)), esc(guardOf(r.To)))
					}
				}
				fmt.Fprintln(out, "Note: agent processes already running keep the hooks they registered; restart them for this to apply.")
				out.Flush()
			}
		} else if res.Changed {
			reportEdit(opts.f, s, res, fmt.Sprintf("set fail_closed: true in %s", res.Path))
		} else if len(refused) == 0 {
			fmt.Fprintf(ios.ErrOut, "No hook to %s: the hooks selected are %s already; nothing was written\n",
				strings.TrimSuffix(verb, "ed"), verb)
		}
		for _, r := range refused {
			fmt.Fprintf(ios.ErrOut, "%s not %s: %s hook %s: %s\n", ios.Colors().FailureIcon(), verb, esc(r.Event), esc(r.Command), esc(r.Reason))
		}
		if !opts.Unprotect && !opts.DryRun {
			// A set, not a search of the plan per hook: protect --all of
			// 100,000 hooks would compare 10¹⁰ pairs (SPEC §29 item 2).
			type rewrapped struct{ event, from string }
			planned := make(map[rewrapped]*hooks.Rewrap, len(plan))
			for i := range plan {
				planned[rewrapped{plan[i].Event, plan[i].From}] = &plan[i]
			}
			var a failClosedAdvice
			for _, sp := range specs {
				switch r := planned[rewrapped{sp.Event, sp.Shown()}]; {
				case r == nil:
				case r.Repointed:
					// Not decided by the plan (its guard moved): decided
					// here, as it is shown.
					a.advise(opts.f, s, s.Inspect(sp, list))
				default:
					// The plan decided this hook already (a script found,
					// nothing refused): its script is all the advice reads.
					a.advise(opts.f, s, hooks.ShellHook{Spec: sp, Verdict: trust.Verdict{Script: r.Script}})
				}
			}
		}
	}
	if len(refused) > 0 {
		return SilentError
	}
	return nil
}

// rewrapSummary is the first line of protect's report: how many hooks
// were protected, and how many re-pointed to the guard beside this hermes.
func rewrapSummary(verb string, plan []hooks.Rewrap, path string) string {
	n := 0
	for _, r := range plan {
		if r.Repointed {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Sprintf("%s %d hook(s) in %s", verb, len(plan), path)
	case n == len(plan):
		return fmt.Sprintf("re-pointed %d protected hook(s) to the guard beside this hermes in %s", n, path)
	}
	return fmt.Sprintf("%s %d hook(s) and re-pointed %d to the guard beside this hermes in %s", verb, len(plan)-n, n, path)
}

// guardOf is the guard's path in a wrapped command as written.
func guardOf(wrapped string) string {
	if words, err := shell.Split(wrapped); err == nil && len(words) > 0 {
		return words[0]
	}
	return wrapped
}

// protectWrite makes the plan's changes: the approvals and the config's
// rewrite, all under the config's lock, so that prune (which decides under
// it) never sees approvals for a config not yet renamed, and another edit
// never slips between them (SPEC §29 item 1).
func protectWrite(cmd *cobra.Command, opts *protectOptions, s *hooks.Setup, plan []hooks.Rewrap, failClosed map[string]bool) (*configEdit, error) {
	rewrite := func(old []byte) ([]byte, error) {
		out, err := hooks.RewriteCommands(old, plan)
		if err != nil || len(failClosed) == 0 {
			return out, err
		}
		return hooks.SetFailClosed(out, failClosed)
	}
	if opts.DryRun {
		return editConfig(cmd, opts.f, s, true, rewrite)
	}
	unlock, err := lockConfig(cmd, opts.f, s)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// The new command's approval first (the wrapped one for protect, the
	// bare one for unprotect, SPEC §24 item 8): were the edit to fail or be
	// killed, an unused approval is left, never a hook the agent would not
	// register; a re-run does what is left. The config's new text is made
	// while the approvals are written (a CPU each: 1 s of protect --all
	// over 100,000 scripts, SPEC §29 item 2), and written only once they
	// are in: an approval that fails leaves the config as it was.
	carried := make(chan error, 1)
	go func() { carried <- carryApprovals(opts.f, s, plan, false) }()
	approved := sync.OnceValue(func() error { return <-carried })
	res, err := editConfigWith(cmd, opts.f, s, false, true, func(old []byte) ([]byte, error) {
		out, err := rewrite(old)
		if err := approved(); err != nil {
			return nil, err
		}
		return out, err
	})
	if err := approved(); err != nil {
		return nil, err
	}
	var unsynced *allowlist.DirSyncError
	if err != nil && !errors.As(err, &unsynced) {
		return nil, err
	}
	if err := carryApprovals(opts.f, s, plan, true); err != nil {
		return nil, fmt.Errorf("the config %s was rewritten, but carrying the approvals over failed: %w", res.Path, err)
	}
	return res, err // nil, or the config's folder that could not be synced
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
		// All at once: one pass over the list, not one per hook (SPEC §29).
		var approve []allowlist.Entry
		if !dropOld {
			approve = make([]allowlist.Entry, 0, len(plan))
		}
		drop := map[allowlist.Key]bool{}
		for _, r := range plan {
			switch {
			case !r.HasOld:
			case dropOld:
				drop[r.Old.Key()] = true
			default:
				approve = append(approve, r.New)
			}
		}
		l.ApproveAll(approve)
		if l.RevokeKeys(drop) == 0 && len(approve) == 0 {
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

// unsafeGuard says why the guard binary, or a folder above it, fails the
// ownership rule (SPEC §24 item 7), "" when it passes.
func unsafeGuard(path string) string {
	if err := safepath.New(os.Getuid()).Check(path); err != nil {
		return "the guard " + path + " can be changed by someone else: " + err.Error()
	}
	return ""
}

// withFailClosed is specs with fail_closed on for the pre_tool_call hooks:
// protect --fail-closed wraps them with the flag (SPEC §25).
func withFailClosed(specs []hookspec.Spec) []hookspec.Spec {
	out := slices.Clone(specs)
	for i := range out {
		if out[i].Event == answer.EventPreToolCall {
			out[i].FailClosed = true
		}
	}
	return out
}

// failClosedCommands are the commands (as written after the rewrite) of
// the selected pre_tool_call hooks that get fail_closed: true in the
// config with protect --fail-closed: those planned, and those protected
// already; a refused hook is left as it is.
func failClosedCommands(opts *protectOptions, specs []hookspec.Spec, plan []hooks.Rewrap, refused []hooks.Refused) map[string]bool {
	if !opts.FailClosed || opts.Unprotect {
		return nil
	}
	out := map[string]bool{}
	planned := map[string]bool{}
	for _, r := range plan {
		if r.Event == answer.EventPreToolCall {
			out[r.To], planned[r.From] = true, true
		}
	}
	for _, sp := range specs {
		if sp.Event == answer.EventPreToolCall && sp.Protected() && !planned[sp.Shown()] && !slices.ContainsFunc(refused, func(r hooks.Refused) bool { return r.Event == sp.Event && sp.Names(r.Command) }) {
			out[sp.Shown()] = true
		}
	}
	return out
}
