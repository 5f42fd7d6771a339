package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

type testOptions struct {
	f     *Factory
	Event string
	payloadFlags
	selectFlags
	// Cases is the policy case file (--cases); JUnit where to write the
	// report of its cases (--junit).
	Cases string
	JUnit string
	Watch bool
	// ReplayAll fires the hooks marked replay: false too; Isolated runs
	// the cases against a throwaway copy of the home (SPEC §26).
	ReplayAll bool
	Isolated  bool
}

func newCmdTest(f *Factory, runF func(*testOptions) error) *cobra.Command {
	opts := &testOptions{f: f}
	cmd := &cobra.Command{
		Use:   "test <event> [-]",
		Short: "Run the hooks of an event, or check hook policies against cases",
		Long: `Run every configured hook of an event, approved or not, against the event's
synthetic payload merged with the payload given (given fields win; - reads
stdin; fields or wire shape). Reports each hook's exit code, output and parsed
answer. Exits 0 whatever the hooks answered; nothing is recorded.

With --cases FILE, check what the hooks decide against a list of cases (YAML
or JSON: name, event, payload, expect). Each case fires its event's hooks as
run-event would (matchers, evaluation, aggregation), approved or not, with no
webhook and no audit line, and compares the outcome: action (allow, block,
approve, modify; continue or finish for pre_verify), message_contains,
context_contains, args, hooks_fired. A case marked canary: true needs no
expect: it must not be blocked; canaries are reported in a section of their
own. Exits 1 when a case fails, 2 when the file has a problem (nothing runs).
--junit writes a JUnit XML report for CI.

Replaying recorded traffic ('hermes hooks cases from-log') runs the hooks for
real: a hook whose entry says replay: false is skipped (not replayed) unless
--replay-all (--only does not bring it back); --isolated runs every hook with
HERMES_HOME a throwaway copy of the home and HOME an empty folder, both
removed afterwards.

--watch runs again whenever the config, the case file or a configured script
changes, until Ctrl-C.`,
		Example: `  hermes hooks test pre_tool_call
  hermes hooks test pre_tool_call --for-tool terminal --payload '{"args": {"command": "rm -rf /"}}'
  hermes hooks test post_tool_call - < recorded-payload.json
  hermes hooks test agent:start
  hermes hooks test --cases hook-cases.yaml --junit hooks-junit.xml
  hermes hooks test --cases hook-cases.yaml --watch --only ~/.hermes/agent-hooks/guard.sh`,
		ValidArgsFunction: completeEventArg(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.checkArgs(cmd, args); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			if opts.Watch {
				return watchRun(cmd, opts.f, opts.watchExtra(), func() error { return testOnce(cmd, opts) })
			}
			return testOnce(cmd, opts)
		},
	}
	opts.payloadFlags.register(cmd, f)
	opts.selectFlags.register(cmd, f)
	fl := cmd.Flags()
	fl.StringVar(&opts.Cases, "cases", "", "check the hooks against the cases in `FILE` (YAML or JSON; see docs/guide.md)")
	fl.StringVar(&opts.JUnit, "junit", "", "with --cases: also write a JUnit XML report to `FILE`")
	fl.BoolVar(&opts.Watch, "watch", false, "run again whenever the config, the case file or a configured script changes, until Ctrl-C")
	fl.BoolVar(&opts.ReplayAll, "replay-all", false, "with --cases: fire the hooks marked replay: false too")
	fl.BoolVar(&opts.Isolated, "isolated", false, "with --cases: run the hooks with HERMES_HOME a throwaway copy of the home and HOME an empty folder")
	return cmd
}

// checkArgs checks the arguments of either form: an event with its
// payload flags, or --cases with none of them (each case names its event
// and payload).
func (opts *testOptions) checkArgs(cmd *cobra.Command, args []string) error {
	if !cmd.Flags().Changed("cases") {
		if opts.JUnit != "" {
			return usageErrorf("--junit reports on cases: give --cases FILE too")
		}
		for _, name := range []string{"replay-all", "isolated"} {
			if cmd.Flags().Changed(name) {
				return usageErrorf("--%s is about replaying cases: give --cases FILE too", name)
			}
		}
		if err := opts.args(cmd, args); err != nil {
			return err
		}
		opts.Event = args[0]
		return opts.refuseGateway(opts.Event)
	}
	if strings.TrimSpace(opts.Cases) == "" {
		return usageErrorf("--cases is empty: give the case file")
	}
	if len(args) > 0 {
		return usageErrorf("--cases runs the events its cases name: give no event (got %q)", args)
	}
	for _, name := range []string{"payload", "payload-file", "for-tool", "dry-run", "timeout", "python"} {
		if cmd.Flags().Changed(name) {
			return usageErrorf("--%s cannot be used with --cases: each case gives its event and payload", name)
		}
	}
	return nil
}

// testOnce is one run of test: the cases, or the event's hooks.
func testOnce(cmd *cobra.Command, opts *testOptions) error {
	if opts.Cases != "" {
		return testCasesRun(cmd, opts)
	}
	return testRun(cmd, opts)
}

// watchExtra are the files besides the config and the scripts whose
// change means running again.
func (opts *testOptions) watchExtra() []string {
	var out []string
	for _, p := range []string{opts.Cases, opts.File} {
		if p != "" && p != "-" {
			out = append(out, p)
		}
	}
	return out
}

type testJSON struct {
	whereJSON
	Event   string         `json:"event"`
	Payload *pyjson.Object `json:"payload"`
	// Hooks is the per-hook list, as in run-event and --cases; Results is
	// the same list under its old name, kept for one release (docs/json.md).
	Hooks   []any `json:"hooks"`
	Results []any `json:"results"`
	// Outcome is what the answers aggregate to, as run-event's.
	Outcome *hooks.Outcome `json:"outcome"`
	// MatcherSkipped counts the hooks whose matcher does not match the
	// payload's tool (or --for-tool): not run, as run-event would not.
	MatcherSkipped int                 `json:"matcher_skipped"`
	Diagnostics    []config.Diagnostic `json:"diagnostics"`
}

type shellResultJSON struct {
	Kind string `json:"kind"`
	commandJSON
	Approved       bool    `json:"approved"`
	ExitCode       *int    `json:"exit_code"`
	TimedOut       bool    `json:"timed_out"`
	Error          *string `json:"error"`
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	// RunEventWouldSkip is why run-event would not run this hook without
	// asking (modified since approval, not approved, …); null when it
	// would. test runs it all the same.
	RunEventWouldSkip *string `json:"run_event_would_skip"`
	outputJSON
	Parsed *hooks.Answer `json:"parsed"`
	// Warnings are what evaluating the answer found worth saying (exited
	// 1, stdout not valid JSON…), as the human output shows them.
	Warnings []string `json:"warnings"`
	// GuardRefusal: the protected hook's guard refused to run it.
	GuardRefusal *string `json:"guard_refusal,omitempty"`
}

func testRun(cmd *cobra.Command, opts *testOptions) error {
	fr, err := opts.begin(cmd, opts.f, opts.Event, false)
	if fr == nil {
		return err
	}
	e, ev, ios := fr.e, fr.ev, opts.f.IO
	list, lw, err := e.Store.Read()
	if err != nil {
		return err
	}
	printWarnings(ios, e.Diagnostics(), append(fr.warnings, lw...))
	fields := fr.fields(&opts.payloadFlags, true)
	wire := e.WireFor(ev.Name, fields)
	if err := opts.check(e.Parsed.ForEvent(ev.Name), ev.Name, e.UserHome); err != nil {
		return err
	}
	// Matchers apply as run-event applies them: to --for-tool, else to the
	// tool the payload given names (SPEC §20); the synthetic payload's
	// tool filters nothing.
	tool := opts.ForTool
	if tool == "" && fr.given != nil {
		tool = hooks.ToolName(fr.given)
	}
	inspected := e.InspectAll(e.Parsed.ForEvent(ev.Name), list)
	selected := opts.selection().Filter(e.Selected(inspected, ev.Name, tool))
	matcherSkipped := len(opts.selection().Filter(e.Selected(inspected, ev.Name, ""))) - len(selected)
	if safeMode(opts.f) {
		// On stderr, so a --json reader sees it too without it breaking stdout.
		fmt.Fprintln(ios.ErrOut, "Note: HERMES_SAFE_MODE is set: run-event would fire nothing; test runs the hooks anyway.")
	}

	if opts.DryRun {
		return dryRun(ios, e, ev.Name, tool, wire, selected, opts.Output)
	}
	var runs []hooks.ShellRun
	for _, h := range selected {
		runs = append(runs, e.RunShell(cmd.Context(), h, wire))
		if err := cmd.Context().Err(); err != nil {
			return CancelError
		}
	}
	outcome := testOutcome(ev.Name, fields, runs)
	// Disabled hooks are listed, never run, even by test (SPEC §27).
	var disabled []hooks.ShellRun
	for _, sp := range e.Parsed.Disabled {
		if sp.Event == ev.Name {
			disabled = append(disabled, hooks.ShellRun{Hook: hooks.ShellHook{Spec: sp}, SkipReason: hooks.SkipDisabled})
		}
	}
	if opts.Output {
		out := testJSON{whereJSON: where(e.Loc), Event: ev.Name,
			Payload: wire, Hooks: []any{}, Outcome: outcome, MatcherSkipped: matcherSkipped, Diagnostics: e.Diagnostics()}
		for _, r := range runs {
			out.Hooks = append(out.Hooks, shellResultToJSON(r))
		}
		for _, r := range disabled {
			out.Hooks = append(out.Hooks, firedToJSON(r))
		}
		out.Results = out.Hooks
		return writeJSON(ios.Out, out)
	}
	w := ios.Out
	printLocation(w, e.Loc)
	defer func() {
		for _, r := range disabled {
			fmt.Fprintf(w, "\n  %s skipped (%s)  %s\n", ios.Colors().Gray("-"), esc(r.SkipReason), esc(r.Hook.Spec.Named()))
		}
	}()
	if len(selected) == 0 {
		if !opts.selection().Empty() {
			fmt.Fprintf(w, "\nNo shell hooks of event '%s' left to fire after --only/--skip\n", esc(ev.Name))
		} else {
			fmt.Fprintf(w, "\n%s\n", noHooksLine(ev.Name, tool))
		}
		return nil
	}
	fmt.Fprintf(w, "\nFiring %d hook(s) for event '%s':\n", len(runs), esc(ev.Name))
	if matcherSkipped > 0 {
		fmt.Fprintf(w, "  (%d hook(s) not run: their matcher does not match tool %q, as in run-event)\n", matcherSkipped, esc(tool))
	}
	for _, r := range runs {
		renderRun(w, ios.Colors(), r, true)
	}
	printOutcome(w, outcome)
	return nil
}

// testOutcome aggregates the answers of test's runs as run-event's
// firing does.
func testOutcome(event string, fields *pyjson.Object, runs []hooks.ShellRun) *hooks.Outcome {
	answers := make([]*hooks.Answer, 0, len(runs))
	for _, r := range runs {
		answers = append(answers, r.Eval.Answer)
	}
	args, _ := fields.Get("args")
	argsObj, _ := args.(*pyjson.Object)
	return hooks.Aggregate(event, argsObj, answers)
}

func shellResultToJSON(r hooks.ShellRun) shellResultJSON {
	res := r.Result
	return shellResultJSON{Kind: "shell", commandJSON: commandOf(r.Hook.Spec), Approved: r.Hook.Approved,
		ExitCode: res.ExitCode, TimedOut: res.TimedOut, Error: pyjson.NullIfEmpty(res.Err),
		ElapsedSeconds: res.ElapsedSeconds(), RunEventWouldSkip: pyjson.NullIfEmpty(wouldSkip(r.Hook)), outputJSON: shellOutput(res),
		Parsed: r.Eval.Answer, Warnings: nonNil(r.Eval.Warnings), GuardRefusal: pyjson.NullIfEmpty(r.GuardRefusal)}
}
