package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

type acceptOptions struct {
	f       *Factory
	Command string
	Event   string
	All     bool
	Yes     bool
	Force   bool
	SHA256  string
	JSON    bool
}

func newCmdAccept(f *Factory, runF func(*acceptOptions) error) *cobra.Command {
	opts := &acceptOptions{f: f}
	cmd := &cobra.Command{
		Use:   "accept [COMMAND]",
		Short: "Approve configured shell hooks",
		Long: `Approve configured shell hooks, recording the sha256 and mtime of each script
and a snapshot of it (so a later change can be shown with 'hermes hooks diff').

At a terminal with no arguments: choose among the pending hooks (never approved,
or modified since approval). With COMMAND (the exact string from the config;
--event narrows) or --all (every pending hook): records them; off a terminal
this needs --yes.`,
		Example: `  hermes hooks accept
  hermes hooks accept --all --yes
  hermes hooks accept '~/.hermes/agent-hooks/guard.sh --strict' --event pre_tool_call --yes
  hermes hooks accept "$CMD" --yes --sha256 9f86d081884c7d65...`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Command = args[0]
			}
			if opts.All && opts.Command != "" {
				return usageErrorf("give either COMMAND or --all, not both")
			}
			if opts.Force && (opts.Command == "" || opts.Event == "") {
				return usageErrorf("--force needs COMMAND and --event (the hook is not in the config, so its event must be named)")
			}
			if opts.SHA256 != "" {
				if opts.Command == "" {
					return usageErrorf("--sha256 pins one script: give the COMMAND it belongs to")
				}
				opts.SHA256 = strings.ToLower(strings.TrimSpace(opts.SHA256))
				if !isSHA256(opts.SHA256) {
					return usageErrorf("--sha256 %q is not a sha256 (64 hex digits)", opts.SHA256)
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return acceptRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Event, "event", "", "only the hook of this `EVENT`")
	fl.BoolVar(&opts.All, "all", false, "every pending hook (never approved, or modified since approval)")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "do not ask (needed off a terminal)")
	fl.BoolVar(&opts.Force, "force", false, "approve a COMMAND that is not in the config (needs --event)")
	fl.StringVar(&opts.SHA256, "sha256", "", "approve only if the script's sha256 is `HEX`")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	_ = cmd.RegisterFlagCompletionFunc("event", completeEvents(f))
	cmd.ValidArgsFunction = completeCommands(f)
	return cmd
}

type acceptJSON struct {
	whereJSON
	Approved []approvedHookJSON `json:"approved"`
}

type approvedHookJSON struct {
	Event string `json:"event"`
	commandJSON
	SHA256 *string `json:"sha256"`
}

func acceptRun(cmd *cobra.Command, opts *acceptOptions) error {
	// With --json, prompts talk on stderr so stdout is only the document.
	opts.f.IO.SetPromptOnStderr(opts.JSON)
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	if err := s.Loc.CheckWritable(); err != nil {
		return err
	}
	ios := opts.f.IO
	list, warnings, err := s.Store.Read()
	if err != nil {
		return err
	}
	printWarnings(ios, s.Diagnostics(), warnings)
	if err := checkAcceptEvent(s, opts.Event); err != nil {
		return err
	}
	var all []hooks.ShellHook
	for _, h := range s.ShellHooks(list) {
		if opts.Event == "" || h.Event == opts.Event {
			all = append(all, h)
		}
	}

	var chosen []hooks.ShellHook
	interactive := false
	switch {
	case opts.Command != "":
		for _, h := range all {
			if h.Names(opts.Command) {
				chosen = append(chosen, h)
			}
		}
		if len(chosen) == 0 {
			if !opts.Force {
				where := ""
				if opts.Event != "" {
					where = " for event " + opts.Event
				}
				return usageErrorf("command %q is not configured%s in %s; check the exact string with 'hermes hooks list', or use --force --event EVENT to approve it anyway",
					opts.Command, where, configName(s))
			}
			chosen = append(chosen, s.Inspect(hooks.Spec{Event: opts.Event, Command: opts.Command}, list))
		}
	case opts.All:
		chosen = pending(all)
	default:
		if !ios.CanPrompt() {
			return usageErrorf("nothing to accept: give a COMMAND or --all (off a terminal, with --yes)")
		}
		interactive = true
		chosen, err = pickPending(opts.f, s, pending(all))
		if err != nil {
			return err
		}
	}
	if len(chosen) == 0 {
		if opts.JSON {
			return writeJSON(ios.Out, acceptJSON{where(s.Loc), []approvedHookJSON{}})
		}
		printLocation(ios.Out, s.Loc)
		fmt.Fprintln(ios.Out)
		switch {
		case interactive:
			fmt.Fprintln(ios.Out, "Nothing approved.")
		case opts.Event != "":
			fmt.Fprintf(ios.Out, "Nothing to approve: every shell hook of %s is approved and unchanged.\n", esc(opts.Event))
		default:
			fmt.Fprintln(ios.Out, "Nothing to approve: every configured shell hook is approved and unchanged.")
		}
		return nil
	}

	if opts.SHA256 != "" {
		for _, h := range chosen {
			fp := s.Fingerprints.Of(h.Script)
			if fp.Err != nil {
				return fmt.Errorf("cannot check --sha256 for %q: script %s: %v", h.Shown(), h.Script, fp.Err)
			}
			if fp.SHA256 != opts.SHA256 {
				return fmt.Errorf("sha256 mismatch for %s: expected %s, the script has %s; not approved", h.Script, opts.SHA256, fp.SHA256)
			}
		}
	}

	if !interactive && !opts.Yes {
		if !ios.CanPrompt() {
			return usageErrorf("approving %d hook(s) off a terminal needs --yes (hooks run with your full user credentials)", len(chosen))
		}
		w := ios.PromptOut()
		for _, h := range chosen {
			fmt.Fprintf(w, "  %s  %s  (script: %s)\n", esc(h.Event), esc(h.Shown()), esc(orNone(h.Script)))
			if h.Approved && h.Drift == allowlist.DriftModified {
				fmt.Fprint(w, scriptDiff(opts.f, s, h))
			}
		}
		ok, err := opts.f.Prompter.Confirm(fmt.Sprintf("Approve %d hook(s)? Commands run with your full user credentials.", len(chosen)), "", false)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(ios.ErrOut, "Nothing approved.")
			if opts.JSON {
				return writeJSON(ios.Out, acceptJSON{where(s.Loc), []approvedHookJSON{}})
			}
			return nil
		}
	}

	entries, warnings, err := s.ApprovePinned(chosen, allowlist.ViaAccept, opts.f.Now(), opts.SHA256)
	printWarnings(ios, nil, warnings)
	if err != nil {
		return err
	}
	if opts.JSON {
		out := acceptJSON{where(s.Loc), []approvedHookJSON{}}
		for i, e := range entries { // one entry per chosen hook, in order
			out.Approved = append(out.Approved, approvedHookJSON{e.Event, commandOf(chosen[i].Spec), nullableString(e.ScriptSHA256)})
		}
		return writeJSON(ios.Out, out)
	}
	cs := ios.Colors()
	printLocation(ios.Out, s.Loc)
	fmt.Fprintln(ios.Out)
	for i, e := range entries {
		hash := "no hash recorded: the script cannot be read"
		if e.ScriptSHA256 != "" {
			hash = "sha256 " + e.ScriptSHA256[:12] + "…"
		}
		fmt.Fprintf(ios.Out, "%s approved  %s  %s  (%s)\n", cs.SuccessIcon(), esc(e.Event), esc(chosen[i].Shown()), hash)
	}
	fmt.Fprintf(ios.Out, "Allowlist: %s\n", esc(s.Store.Path))
	return nil
}

// checkAcceptEvent refuses an --event no shell hook can be approved for.
func checkAcceptEvent(s *hooks.Setup, event string) error {
	if event == "" {
		return nil
	}
	if hooks.IsGatewayEvent(event) {
		return usageErrorf("%s is a gateway event: gateway hooks need no approval (placing the folder under %s is the consent); --event takes a shell event", event, s.GatewayDir())
	}
	ev, ok := s.Catalogue.Lookup(event)
	if !ok {
		return unknownEventError(s, event)
	}
	if !ev.ShellSupported {
		return usageErrorf("shell hooks cannot serve %s (only in-process plugins can): there is nothing to approve for it", event)
	}
	return nil
}

// pending are the hooks waiting for consent: never approved, or whose
// script changed since approval.
func pending(all []hooks.ShellHook) []hooks.ShellHook {
	var out []hooks.ShellHook
	for _, h := range all {
		if !h.Approved || h.Drift == allowlist.DriftModified {
			out = append(out, h)
		}
	}
	return out
}

func configName(s *hooks.Setup) string {
	if s.Loc.ConfigPath == "" {
		return "the config (none found)"
	}
	return s.Loc.ConfigPath
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
