package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/spf13/cobra"
)

type runEventOptions struct {
	f           *Factory
	Event       string
	ExitCode    bool
	AcceptHooks bool
	payloadFlags
	selectFlags
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
event's synthetic payload. Stdin is read only with - (a payload piped without
it is not read, and hermes says so). Unapproved hooks fire only with consent:
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
			if err := opts.refuseGateway(opts.Event); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runEventRun(cmd, opts)
		},
	}
	opts.payloadFlags.register(cmd, f)
	opts.selectFlags.register(cmd, f)
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
	// Interrupted: Ctrl-C or SIGTERM ended the firing; hooks holds the
	// runs so far (SPEC §13.17).
	Interrupted bool `json:"interrupted,omitempty"`
	// Errors: writes that failed during the firing (recording an
	// approval); the outcome and the exit code are the hooks' (SPEC §22).
	Errors []string `json:"errors,omitempty"`
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
	if err := opts.check(e.Parsed.ForEvent(ev.Name), ev.Name, e.UserHome); err != nil {
		return err
	}
	sel := opts.selection()
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
		budget := hookspec.NewMatchBudget()
		for _, h := range e.ShellHooks(list) {
			if h.Event != ev.Name || sel.Excludes(h) {
				continue
			}
			if !ev.Tool {
				hs = append(hs, h)
			} else if ok, _ := budget.Match(h.Matcher, tool); ok {
				hs = append(hs, h)
			}
		}
		return dryRun(ios, e, ev.Name, tool, e.WireFor(ev.Name, fields), hs, opts.Output)
	}
	if safe {
		fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: no hook or webhook fires.")
	}
	// run-event is the one command of this tool that records (SPEC §26).
	rs := recordSettings(opts.f, e.Loc.ConfigPath)
	e.Record = &rs
	d, err := e.DispatchShellWith(cmd.Context(), ev.Name, fields, hooks.DispatchOptions{SafeMode: safe,
		Consent: consentFor(opts.f, cmd, e, opts.AcceptHooks), Selection: sel})
	if err != nil {
		if cmd.Context().Err() != nil {
			if d != nil && d.Interrupted {
				// Every run is accounted for: the hooks that ran, the one
				// killed, before exiting 130 (SPEC §13.17).
				printWarnings(ios, nil, d.Warnings)
				printErrors(ios, d.Errors)
				if opts.Output {
					if err := writeJSON(ios.Out, runEventDocument(e, d, nil)); err != nil {
						return err
					}
					return &reportedError{CancelError}
				}
				renderDispatch(opts.f, e, d, nil)
			}
			return CancelError
		}
		return err
	}
	printWarnings(ios, nil, d.Warnings)
	printErrors(ios, d.Errors)
	var webhooks []webhookResultJSON
	if !safe {
		for _, r := range e.DeliverWebhooks(cmd.Context(), d) {
			webhooks = append(webhooks, webhookResultJSON{URL: r.URL, StatusCode: nonZero(r.StatusCode),
				Attempts: r.Attempts, Error: pyjson.NullIfEmpty(r.Error)})
		}
		if cmd.Context().Err() != nil {
			return CancelError
		}
	}

	if opts.Output {
		if err := writeJSON(ios.Out, runEventDocument(e, d, webhooks)); err != nil {
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

func runEventDocument(e *hooks.Engine, d *hooks.Dispatch, webhooks []webhookResultJSON) runEventJSON {
	out := runEventJSON{Event: d.Event, whereJSON: where(e.Loc), Hooks: []any{}, Outcome: d.Outcome,
		Webhooks: nonNil(webhooks), Diagnostics: e.Diagnostics(), Interrupted: d.Interrupted, Errors: d.Errors}
	for _, r := range d.Runs {
		out.Hooks = append(out.Hooks, firedToJSON(r))
	}
	return out
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
				fmt.Fprintf(w, "\n  %s skipped (%s)  %s\n", cs.Gray("-"), esc(r.SkipReason), esc(r.Hook.Spec.Named()))
				if a := r.Eval.Answer; a != nil {
					fmt.Fprintf(w, "    fail_closed: %s\n", esc(fmt.Sprint(a.Wire())))
				}
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
	switch {
	case d.Interrupted:
		fmt.Fprintln(w, "\nInterrupted: the hook running was killed and the rest did not run.")
	default:
		printOutcome(w, d.Outcome)
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
	return func(h hooks.ShellHook) (hooks.Grant, error) {
		if h.Unapprovable != "" {
			// Not offered, by no flag either (SPEC §13.2 rule 1).
			reason := "not approved"
			if h.Approved {
				reason = blockWords(h.Reason())
			}
			fmt.Fprintf(ios.ErrOut, "%s skipped %s hook %q: %s: %s; not offered for approval\n",
				ios.ErrColors().WarningIcon(), esc(h.Event), h.Spec.Named(), esc(reason), esc(h.Unapprovable))
			return hooks.Grant{}, nil
		}
		via := ""
		switch {
		case flag:
			via = allowlist.ViaAcceptHooksFlag
		case env:
			via = allowlist.ViaEnv
		case auto:
			via = allowlist.ViaConfig
		}
		if via != "" {
			if h.Blocked() {
				warnAutoReapproval(f, e.Setup, h, via)
			}
			return hooks.Grant{OK: true, Via: via}, nil
		}
		if ios.CanPrompt() {
			ok, sha, err := promptApproval(f, e.Setup, h)
			return hooks.Grant{OK: ok, Via: allowlist.ViaPrompt, SHA256: sha}, err
		}
		cs := ios.ErrColors()
		cmdText := pasteQuote(h.Spec.Named())
		switch reason := h.Reason(); {
		case h.Blocked():
			fmt.Fprintf(ios.ErrOut, "%s skipped %s hook %q: %s (%s).\n  Review the change with: hermes hooks diff %s\n  then re-approve with: hermes hooks accept %s --event %s --yes (or run with --accept-hooks, which records the new hash)\n",
				cs.WarningIcon(), esc(h.Event), h.Spec.Named(), esc(blockWords(reason)), esc(h.Script), cmdText, cmdText, esc(h.Event))
		default:
			fmt.Fprintf(ios.ErrOut, "%s skipped %s hook %q: not approved.\n  Approve it with 'hermes hooks accept', or let unseen hooks run with --accept-hooks, HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true in the config.\n",
				cs.WarningIcon(), esc(h.Event), h.Spec.Named())
		}
		return hooks.Grant{}, nil
	}
}

// warnAutoReapproval says on stderr that a flag, the environment or the
// config is re-approving a pinned script that changed (SPEC §13.8): never
// silently.
func warnAutoReapproval(f *Factory, s *hooks.Setup, h hooks.ShellHook, via string) {
	sh := s.Show(h)
	change := "the script cannot be read now"
	if sh.Fingerprint.Err == nil {
		change = fmt.Sprintf("sha256 %s → %s", shortSHA(h.Approval.ScriptSHA256), shortSHA(sh.SHA256()))
		if sh.Diff != nil && sh.Diff.Changed {
			added, removed := hooks.DiffStat(sh.Diff.Unified)
			change += fmt.Sprintf(", +%d −%d lines", added, removed)
		} else if sh.DiffErr != nil {
			change += " (no snapshot to diff)"
		}
	}
	fmt.Fprintf(f.IO.ErrOut, "%s re-approving %s hook %q through %s: its script %s changed since approval (%s); review it with: hermes hooks diff %s\n",
		f.IO.ErrColors().WarningIcon(), esc(h.Event), h.Spec.Named(), via, esc(h.Script), esc(change), pasteQuote(h.Spec.Named()))
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	if sha == "" {
		return "none"
	}
	return sha
}

// promptApproval asks at the terminal whether a hook may run, showing what
// it is and its script (first approval) or how the script changed
// (re-approval). Enter means No. It returns the sha256 of the content
// shown: when the script changed while the question was open, nothing is
// approved, the person is told, and asked again with the new content.
func promptApproval(f *Factory, s *hooks.Setup, h hooks.ShellHook) (ok bool, sha string, err error) {
	w := f.IO.PromptOut()
	for {
		sh := s.Show(h)
		title := "Shell hook needs approval:"
		if h.Approved {
			title = "Shell hook needs re-approval (" + blockWords(h.Reason()) + "):"
		}
		fmt.Fprintf(w, "\n%s\n  event:   %s\n  command: %s\n", title, esc(h.Event), esc(h.Spec.Named()))
		if runs := s.RunsAs(h.Spec); runs != "" {
			fmt.Fprintf(w, "  runs as: %s\n", esc(runs))
		}
		fmt.Fprintf(w, "  script:  %s\n", esc(orNone(h.Script)))
		fmt.Fprint(w, renderShown(f, sh, "    "))
		fmt.Fprint(w, renderCode(h.Code, hashOf(s), "  "))
		fmt.Fprintln(w, "Commands run with your full user credentials. Only approve commands you trust.")
		ok, err := f.Prompter.Confirm("Allow this hook to run?", "", false)
		if err != nil || !ok {
			return false, "", err
		}
		if !sh.Changed() {
			return true, sh.SHA256(), nil
		}
		fmt.Fprintf(w, "\n%s The script changed while you were reading it: nothing was approved. Here it is again.\n", f.IO.Colors().WarningIcon())
	}
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
