package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

type runEventOptions struct {
	f           *Factory
	Event       string
	ExitCode    bool
	AcceptHooks bool
	payloadFlags
}

func newCmdRunEvent(f *Factory, runF func(*runEventOptions) error) *cobra.Command {
	opts := &runEventOptions{f: f}
	cmd := &cobra.Command{
		Use:   "run-event <event> [-]",
		Short: "Fire an event for real, as the agent would",
		Long: `Fire an event as the agent would at that point of its life: consent, matchers,
pinning, every allowed hook in config order, evaluation of the answers, the
aggregated outcome, outbound webhooks, and a line per fired hook in the audit
log (<HERMES_HOME>/logs/hooks.jsonl).

The payload is the one given, as given (fields or wire shape); with none, the
event's synthetic payload. Unapproved hooks fire only with consent:
--accept-hooks, HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true record the
approval; at a terminal you are asked; otherwise they are skipped.`,
		Example: `  hermes hooks run-event pre_tool_call --payload '{"tool_name":"terminal","args":{"command":"ls"}}' --exit-code
  hermes --accept-hooks hooks run-event on_session_start --json
  hermes hooks run-event command:model`,
		ValidArgsFunction: completeEventArg(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.args(cmd, args); err != nil {
				return err
			}
			opts.Event = args[0]
			if runF != nil {
				return runF(opts)
			}
			return runEventRun(cmd, opts)
		},
	}
	opts.register(cmd, f)
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 3 when the outcome is a block")
	cmd.Flags().BoolVar(&opts.AcceptHooks, "accept-hooks", false, "approve unseen shell hooks without asking (as the global flag)")
	return cmd
}

type runEventJSON struct {
	Event string `json:"event"`
	whereJSON
	Hooks       []any               `json:"hooks"`
	Outcome     *hooks.Outcome      `json:"outcome"`
	Webhooks    []webhookResultJSON `json:"webhooks"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
}

type firedShellJSON struct {
	Kind string `json:"kind"`
	commandJSON
	Status         string        `json:"status"`
	SkipReason     *string       `json:"skip_reason"`
	ExitCode       *int          `json:"exit_code"`
	TimedOut       bool          `json:"timed_out"`
	Error          *string       `json:"error"`
	ElapsedSeconds float64       `json:"elapsed_seconds"`
	Parsed         *hooks.Answer `json:"parsed"`
}

type webhookResultJSON struct {
	URL        string  `json:"url"`
	StatusCode *int    `json:"status_code"`
	Attempts   int     `json:"attempts"`
	Error      *string `json:"error"`
}

func runEventRun(cmd *cobra.Command, opts *runEventOptions) error {
	// With --json, prompts talk on stderr so stdout is only the document.
	opts.f.IO.SetPromptOnStderr(opts.Output)
	fr, err := opts.begin(cmd, opts.f, opts.Event, true)
	if fr == nil {
		return err
	}
	e, ev, ios := fr.e, fr.ev, opts.f.IO
	printWarnings(ios, e.Diagnostics(), fr.warnings)
	fields := fr.fields(&opts.payloadFlags, false)
	safe := safeMode(opts.f)
	if opts.DryRun {
		list, lw, err := e.Store.Read()
		if err != nil {
			return err
		}
		printWarnings(ios, nil, lw)
		if safe {
			fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: for real, no hook or webhook would fire.")
		}
		// As the firing would: on tool events, the matcher against the
		// payload's tool_name.
		tool := hooks.ToolName(fields)
		var hs []hooks.ShellHook
		for _, h := range e.ShellHooks(list) {
			if h.Event == ev.Name && (!ev.Tool || h.Matcher.Match(tool)) {
				hs = append(hs, h)
			}
		}
		return dryRun(ios, e, ev.Name, tool, e.WireFor(ev.Name, fields), hs, opts.Output)
	}
	if safe {
		fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: no hook or webhook fires.")
	}
	d, err := e.DispatchShell(cmd.Context(), ev.Name, fields, safe, consentFor(opts.f, cmd, e, opts.AcceptHooks))
	if err != nil {
		if cmd.Context().Err() != nil {
			return CancelError
		}
		return err
	}
	printWarnings(ios, nil, d.Warnings)
	var webhooks []webhookResultJSON
	if !safe {
		for _, r := range e.DeliverWebhooks(cmd.Context(), d) {
			webhooks = append(webhooks, webhookResultJSON{URL: r.URL, StatusCode: nonZero(r.StatusCode),
				Attempts: r.Attempts, Error: nullableString(r.Error)})
		}
		if cmd.Context().Err() != nil {
			return CancelError
		}
	}

	if opts.Output {
		out := runEventJSON{Event: ev.Name, whereJSON: where(e.Loc),
			Hooks: []any{}, Outcome: d.Outcome, Webhooks: nonNil(webhooks), Diagnostics: e.Diagnostics()}
		for _, r := range d.Runs {
			out.Hooks = append(out.Hooks, firedToJSON(r))
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		renderDispatch(opts.f, e, d, webhooks)
	}
	if opts.ExitCode && d.Blocked() {
		return &ExitError{Code: ExitBlocked}
	}
	return nil
}

func firedToJSON(r hooks.ShellRun) firedShellJSON {
	j := firedShellJSON{Kind: "shell", commandJSON: commandOf(r.Hook.Spec), Status: "fired"}
	if !r.Fired() {
		j.Status, j.SkipReason = "skipped", nullableString(r.SkipReason)
		return j
	}
	res := r.Result
	j.ExitCode, j.TimedOut, j.Error = res.ExitCode, res.TimedOut, nullableString(res.Err)
	j.ElapsedSeconds, j.Parsed = res.ElapsedSeconds(), r.Eval.Answer
	return j
}

func renderDispatch(f *Factory, e *hooks.Engine, d *hooks.Dispatch, webhooks []webhookResultJSON) {
	w := f.IO.Out
	cs := f.IO.Colors()
	printLocation(w, e.Loc)
	if len(d.Runs) == 0 {
		fmt.Fprintf(w, "\nNo shell hooks configured for event: %s\n", esc(d.Event))
	} else {
		fired := 0
		for _, r := range d.Runs {
			if r.Fired() {
				fired++
			}
		}
		fmt.Fprintf(w, "\nFiring %d hook(s) for event '%s':\n", fired, esc(d.Event))
		for _, r := range d.Runs {
			if r.Fired() {
				renderRun(w, cs, r, false)
			} else {
				fmt.Fprintf(w, "\n  %s skipped (%s)  %s\n", cs.Gray("-"), esc(r.SkipReason), esc(r.Hook.Shown()))
			}
		}
	}
	for _, wh := range webhooks {
		if wh.Error != nil {
			fmt.Fprintf(w, "\n  %s webhook %s: %s (%d attempt(s))\n", cs.FailureIcon(), esc(wh.URL), esc(*wh.Error), wh.Attempts)
		} else if *wh.StatusCode >= 300 {
			fmt.Fprintf(w, "\n  %s webhook %s: HTTP %d (%d attempt(s))\n", cs.FailureIcon(), esc(wh.URL), *wh.StatusCode, wh.Attempts)
		} else {
			fmt.Fprintf(w, "\n  %s webhook %s: HTTP %d (%d attempt(s))\n", cs.SuccessIcon(), esc(wh.URL), *wh.StatusCode, wh.Attempts)
		}
	}
	if d.Outcome != nil {
		fmt.Fprintf(w, "\nOutcome: %s\n", esc(fmt.Sprint(d.Outcome.Object())))
	} else {
		fmt.Fprintln(w, "\nOutcome: none (observer event)")
	}
}

// consentFor decides whether an untrusted hook may fire now: the
// --accept-hooks flag (root or run-event), HERMES_ACCEPT_HOOKS, the
// config's hooks_auto_accept, else a prompt at a terminal, else no with a
// warning naming the three ways to approve.
func consentFor(f *Factory, cmd *cobra.Command, e *hooks.Engine, localFlag bool) hooks.Consent {
	flag := localFlag || f.Settings.GetBool("accept-hooks")
	envVal, _ := f.Env("HERMES_ACCEPT_HOOKS")
	env := config.Truthy(envVal)
	auto := e.Config.Settings.AutoAccept
	ios := f.IO
	return func(h hooks.ShellHook) (bool, string, error) {
		switch {
		case flag:
			return true, allowlist.ViaAcceptHooksFlag, nil
		case env:
			return true, allowlist.ViaEnv, nil
		case auto:
			return true, allowlist.ViaConfig, nil
		}
		if ios.CanPrompt() {
			ok, err := promptApproval(f, e.Setup, h)
			return ok, allowlist.ViaPrompt, err
		}
		cs := ios.ErrColors()
		if h.Blocked() {
			fmt.Fprintf(ios.ErrOut, "%s skipped %s hook %q: script modified since approval (%s).\n  Review the change with: hermes hooks diff %s\n  then re-approve with: hermes hooks accept %s --event %s --yes (or run with --accept-hooks, which records the new hash)\n",
				cs.WarningIcon(), esc(h.Event), h.Shown(), esc(h.Script), esc(shell.Quote(h.Shown())), esc(shell.Quote(h.Shown())), esc(h.Event))
		} else {
			fmt.Fprintf(ios.ErrOut, "%s skipped %s hook %q: not approved.\n  Approve it with 'hermes hooks accept', or let unseen hooks run with --accept-hooks, HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true in the config.\n",
				cs.WarningIcon(), esc(h.Event), h.Shown())
		}
		return false, "", nil
	}
}

// promptApproval asks at the terminal whether a hook may run, showing what
// it is and, when re-approving, how its script changed. Enter means No.
func promptApproval(f *Factory, s *hooks.Setup, h hooks.ShellHook) (bool, error) {
	w := f.IO.PromptOut()
	title := "Shell hook needs approval:"
	if h.Approved {
		title = "Shell hook needs re-approval (script modified since approval):"
	}
	fmt.Fprintf(w, "\n%s\n  event:   %s\n  command: %s\n  script:  %s\n", title, esc(h.Event), esc(h.Shown()), esc(orNone(h.Script)))
	if h.Approved {
		fmt.Fprintln(w, "  What changed since approval:")
		fmt.Fprintln(w, indent(scriptDiff(f, s, h), "    "))
	}
	fmt.Fprintln(w, "Commands run with your full user credentials. Only approve commands you trust.")
	return f.Prompter.Confirm("Allow this hook to run?", "", false)
}

// safeMode reports HERMES_SAFE_MODE.
func safeMode(f *Factory) bool {
	v, _ := f.Env("HERMES_SAFE_MODE")
	return config.Truthy(v)
}

// Engine loads the setup and wires it to the process for running hooks.
func (f *Factory) Engine(cmd *cobra.Command) (*hooks.Engine, error) {
	s, err := f.Load(cmd)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	return &hooks.Engine{Setup: s, Runner: f.Runner, Environ: f.Environ(), Cwd: cwd, Now: f.Now}, nil
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
