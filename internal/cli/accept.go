package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/spf13/cobra"
)

type acceptOptions struct {
	f       *Factory
	Command string
	Event   string
	All     bool
	Yes     bool
	Force   bool
	SHA256  string
	Show    bool
	JSON    bool
	// FromLock approves exactly what the lock file says (SPEC §20).
	FromLock string
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
this needs --yes.

With --from-lock FILE (written by 'hermes hooks lock' and reviewed): approves
exactly the hooks whose command and script sha256 equal the lock's, refuses
every other one with the reason, and exits 1 if any was refused. The lock is
the consent, so no --yes is needed: the CI replacement for --accept-hooks.`,
		Example: `  hermes hooks accept
  hermes hooks accept --all --yes
  hermes hooks accept '~/.hermes/agent-hooks/guard.sh --strict' --event pre_tool_call --yes
  hermes hooks accept "$CMD" --yes --sha256 9f86d081884c7d65...
  hermes hooks accept --from-lock hooks.lock.json`,
		// "approve" is what the agent's prompt and many users say.
		SuggestFor: []string{"approve", "allow", "trust"},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("%s takes at most one COMMAND, got %d arguments (quote a command that has spaces)", cmd.CommandPath(), len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Command = args[0]
			}
			if opts.FromLock != "" && (opts.Command != "" || opts.All || opts.Force || opts.SHA256 != "" || opts.Show) {
				return usageErrorf("--from-lock approves what the lock says: it takes no COMMAND, --all, --force, --sha256 or --show (--event narrows)")
			}
			if opts.All && opts.Command != "" {
				return usageErrorf("give either COMMAND or --all, not both")
			}
			if opts.Force {
				if opts.Command == "" {
					return usageErrorf("--force needs the COMMAND to approve")
				}
				if err := checkForcedCommand(opts.Command); err != nil {
					return err
				}
			}
			if opts.Show && (opts.Command == "" && !opts.All) {
				return usageErrorf("--show prints the script of a COMMAND (or of every pending hook with --all)")
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
	fl.BoolVar(&opts.Show, "show", false, "print the whole script(s) and exit without approving")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	fl.StringVar(&opts.FromLock, "from-lock", "", "approve exactly the hooks the lock `FILE` names with their sha256; refuse the rest (exit 1)")
	_ = cmd.RegisterFlagCompletionFunc("event", completeShellEvents(f))
	cmd.ValidArgsFunction = completeCommands(f)
	return cmd
}

type acceptJSON struct {
	whereJSON
	Approved []approvedHookJSON `json:"approved"`
	// NotApproved: with --all, the hooks that could not be approved and why.
	NotApproved []refusedHookJSON `json:"not_approved,omitempty"`
}

type approvedHookJSON struct {
	Event string `json:"event"`
	commandJSON
	SHA256 *string `json:"sha256"`
	// Code is what the approval pins (SPEC §23); Pinnable false: approved
	// as its command string.
	Code     []codeFileJSON `json:"code,omitempty"`
	Pinnable *bool          `json:"pinnable,omitempty"`
}

func acceptRun(cmd *cobra.Command, opts *acceptOptions) error {
	// With --json, prompts talk on stderr so stdout is only the document.
	opts.f.IO.SetPromptOnStderr(opts.JSON)
	s, err := opts.f.LoadWithAllowlist(cmd)
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
	if opts.FromLock != "" {
		return acceptFromLock(cmd, opts, s, list)
	}
	if opts.Command != "" {
		if opts.Command, err = typedCommand(s.Parsed.Specs, opts.Command, opts.Event, s.UserHome, "--event"); err != nil {
			return err
		}
	}
	var all []hooks.ShellHook
	for _, h := range s.ShellHooks(list) {
		if opts.Event == "" || h.Event == opts.Event {
			all = append(all, h)
		}
	}

	var chosen []hooks.ShellHook
	var shownHashes []string
	interactive := false
	switch {
	case opts.Command != "":
		for _, h := range all {
			if h.Names(opts.Command) {
				chosen = append(chosen, h)
			}
		}
		if len(chosen) == 0 {
			if !opts.Force || opts.Event == "" {
				where := ""
				if opts.Event != "" {
					where = " for event " + opts.Event
				}
				return usageErrorf("command %q is not configured%s in %s; check the exact string with 'hermes hooks list', or use --force --event EVENT to approve it anyway",
					opts.Command, where, configName(s))
			}
			chosen = append(chosen, s.Inspect(hookspec.Spec{Event: opts.Event, Command: opts.Command}, list))
		}
	case opts.All:
		chosen = pending(all)
	case opts.Show:
	default:
		if !ios.CanPrompt() {
			// Exit 2 either way (SPEC §28 item 9): nothing was selected.
			if n := len(pending(all)); n > 0 {
				return usageErrorf("%d hook(s) wait for approval: give a COMMAND, --all, or run it at a terminal", n)
			}
			return usageErrorf("nothing to accept: every configured shell hook is approved and unchanged (give a COMMAND to approve one afresh)")
		}
		interactive = true
		chosen, shownHashes, err = pickPending(opts.f, s, pending(all))
		if err != nil {
			return err
		}
	}
	if opts.Show {
		return showScripts(ios, s, chosen)
	}
	if len(chosen) == 0 {
		if opts.JSON {
			return writeJSON(ios.Out, acceptJSON{whereJSON: where(s.Loc), Approved: []approvedHookJSON{}})
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

	var notApproved []refusedHookJSON
	if !opts.Force && opts.All {
		// One hook that cannot be approved never stops the others (SPEC
		// §23): they are listed, and the exit is 1.
		chosen, notApproved = splitApprovable(s, chosen)
		if len(chosen) == 0 {
			return reportNotApproved(opts, s, notApproved)
		}
	} else if !opts.Force {
		if err := refuseUnreadable(chosen); err != nil {
			return err
		}
		if err := refuseUnsafe(s, chosen); err != nil {
			return err
		}
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

	// What is recorded is what was shown (SPEC §13.6): the content the
	// checklist or the question showed, else (--yes) what is there now, or
	// the --sha256 pin.
	want := make([]string, len(chosen))
	for i := range want {
		want[i] = opts.SHA256
	}
	if interactive {
		want = shownHashes
	}
	if !interactive && !opts.Yes {
		if !ios.CanPrompt() {
			return usageErrorf("approving %d hook(s) off a terminal needs --yes (hooks run with your full user credentials)", len(chosen))
		}
		ok, shown, err := confirmApproval(opts.f, s, chosen)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(ios.ErrOut, "Nothing approved.")
			if opts.JSON {
				return writeJSON(ios.Out, acceptJSON{whereJSON: where(s.Loc), Approved: []approvedHookJSON{}})
			}
			return nil
		}
		if opts.SHA256 == "" {
			want = shown
		}
	}

	entries, warnings, err := s.ApproveShown(chosen, allowlist.ViaAccept, opts.f.Now(), want)
	printWarnings(ios, nil, warnings)
	if err != nil {
		return err
	}
	warnNotPinnable(ios, chosen)
	if opts.JSON {
		out := acceptJSON{whereJSON: where(s.Loc), Approved: []approvedHookJSON{}, NotApproved: notApproved}
		for i, e := range entries { // one entry per chosen hook, in order
			out.Approved = append(out.Approved, approvedHookJSON{e.Event, commandOf(chosen[i].Spec), pyjson.NullIfEmpty(e.ScriptSHA256), codeJSONOf(e.Code), pinnableOf(e)})
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
		return reportNotApproved(opts, s, notApproved)
	}
	cs := ios.Colors()
	printLocation(ios.Out, s.Loc)
	fmt.Fprintln(ios.Out)
	for i, e := range entries {
		hash := "no hash recorded: the script cannot be read"
		switch {
		case chosen[i].NoScript:
			hash = "no script file: the command string is what is approved"
		case e.Unpinnable != "":
			hash = "not pinnable: approved as its command string"
		case e.ScriptSHA256 != "":
			hash = "sha256 " + e.ScriptSHA256[:12] + "…"
		case pinsAll(e):
			hash = "pinned by its code"
		}
		fmt.Fprintf(ios.Out, "%s approved  %s  %s  (%s)\n", cs.SuccessIcon(), esc(e.Event), escCmd(chosen[i].Spec.Named()), hash)
		// Off a terminal too, what it runs as (SPEC §24 item 9).
		if runs := s.RunsAsNamed(chosen[i].Spec); runs != "" {
			fmt.Fprintf(ios.Out, "    runs as: %s\n", escCmd(runs))
		}
		fmt.Fprint(ios.Out, renderCodeFiles(e.Code, "    "))
	}
	fmt.Fprintf(ios.Out, "Allowlist: %s\n", esc(s.Store.Path))
	printFailClosedAdvice(opts.f, s, list, chosen)
	return reportNotApproved(opts, s, notApproved)
}

// checkAcceptEvent refuses an --event no shell hook can be approved for.
func checkAcceptEvent(s *hooks.Setup, event string) error {
	if event == "" {
		return nil
	}
	if catalog.IsGatewayEvent(event) {
		return usageErrorf("%q is a gateway event: gateway hooks need no approval (placing the folder under %s is the consent); --event takes a shell event", event, s.GatewayDir())
	}
	ev, ok := s.Catalogue.Lookup(event)
	if !ok {
		return unknownEventError(s, event)
	}
	if !ev.ShellSupported {
		return usageErrorf("shell hooks cannot serve %q (only in-process plugins can): there is nothing to approve for it", event)
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

// checkForcedCommand refuses a --force COMMAND that could never be the
// string the agent matches: blank, with surrounding white space (the config
// stores commands trimmed), or not splittable into words.
func checkForcedCommand(cmd string) error {
	switch {
	case strings.TrimSpace(cmd) == "":
		return usageErrorf("--force: the command is blank")
	case strings.TrimSpace(cmd) != cmd:
		return usageErrorf("--force: command %q has white space around it; the agent matches the trimmed string %q", cmd, strings.TrimSpace(cmd))
	}
	if _, err := shell.Split(cmd); err != nil {
		return usageErrorf("--force: command %q cannot be parsed: %v", cmd, err)
	}
	return nil
}

// refuseUnreadable stops an approval that could pin nothing (SPEC §13.3):
// a script that cannot be read now has no hash to record, and whatever
// appeared there later would run as approved.
func refuseUnreadable(hs []hooks.ShellHook) error {
	var bad []string
	for _, h := range hs {
		if reason := unreadable(h); reason != "" {
			bad = append(bad, fmt.Sprintf("%s hook %q: %s", h.Event, h.Shown(), reason))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("not approved: the script cannot be read, so there is nothing to pin (fix it; --force approves the command string alone only while no file is at the script path):\n  %s", strings.Join(bad, "\n  "))
}

// refuseUnsafe stops the approval of a script someone else can change
// (SPEC §13.2 rule 9), judged now: run-event would not run it anyway, and
// approving it silently hides that. --force approves it regardless.
func refuseUnsafe(s *hooks.Setup, hs []hooks.ShellHook) error {
	var bad []string
	for _, h := range hs {
		if now := s.InspectNow(h.Spec, nil); now.Unsafe != nil {
			bad = append(bad, fmt.Sprintf("%s hook %q: %v", h.Event, h.Shown(), now.Unsafe))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("not approved: someone else can change the script, so run-event would not run it (fix the owner or mode, e.g. chmod go-w, or approve anyway with --force):\n  %s", strings.Join(bad, "\n  "))
}

// unreadable says why a hook's script cannot be hashed now, "" when it can.
func unreadable(h hooks.ShellHook) string {
	if h.ParseErr != nil {
		return h.ParseErr.Error()
	}
	if h.NoScript {
		return "" // the command string is what is approved (SPEC §19)
	}
	// Every file of the code is pinned (SPEC §23): each must be there and
	// readable now, read once. A redirect target or a jq filter is not a
	// file of it.
	read := false
	for _, f := range h.Code.Files {
		if f.System {
			continue
		}
		if fp := allowlist.FingerprintNow(f.Path); fp.Err != nil {
			return fp.Err.Error()
		}
		read = read || f.Path == h.Script
	}
	if filepath.IsAbs(h.Script) {
		if _, err := os.Lstat(h.Script); err == nil {
			if read {
				return ""
			}
			if fp := allowlist.FingerprintNow(h.Script); fp.Err != nil {
				return fp.Err.Error()
			}
			return ""
		}
	}
	if len(h.Code.Files) > 0 || !h.Code.Pinnable {
		// §4's word names no file, and the code (or, not pinnable, the
		// command string) is what is approved.
		return ""
	}
	if !filepath.IsAbs(h.Script) {
		return fmt.Sprintf("%q is not found", h.Script)
	}
	if fp := allowlist.FingerprintNow(h.Script); fp.Err != nil {
		return fp.Err.Error()
	}
	return ""
}

// confirmApproval shows each hook and its script (its first lines, or its
// diff for a re-approval) and asks once. It returns the hashes of what it
// showed; when a script changed while the question was open, nothing is
// approved, the person is told, and asked again with the new content.
func confirmApproval(f *Factory, s *hooks.Setup, hs []hooks.ShellHook) (bool, []string, error) {
	w := f.IO.PromptOut()
	for {
		shown := make([]hooks.Shown, len(hs))
		for i, h := range hs {
			shown[i] = s.Show(h)
			fmt.Fprintf(w, "  %s  %s  (script: %s)\n", esc(h.Event), escCmd(h.Shown()), esc(orNone(h.Script)))
			if runs := s.RunsAs(h.Spec); runs != "" {
				fmt.Fprintf(w, "      runs as: %s\n", escCmd(runs))
			}
			fmt.Fprint(w, renderShown(f, shown[i], "      "))
			fmt.Fprint(w, renderCode(h.Code, hashOf(s), "      "))
		}
		ok, err := f.Prompter.Confirm(fmt.Sprintf("Approve %d hook(s)? Commands run with your full user credentials.", len(hs)), "", false)
		if err != nil || !ok {
			return false, nil, err
		}
		changed := changedSince(shown)
		if len(changed) == 0 {
			return true, shownSHAs(shown), nil
		}
		fmt.Fprintf(w, "\n%s %s changed while you were reading: nothing was approved. Here is what is there now.\n\n",
			f.IO.Colors().WarningIcon(), esc(strings.Join(changed, ", ")))
	}
}

func changedSince(shown []hooks.Shown) []string {
	var out []string
	for _, sh := range shown {
		if sh.Changed() {
			out = append(out, sh.Hook.Script)
		}
	}
	return out
}

func shownSHAs(shown []hooks.Shown) []string {
	out := make([]string, len(shown))
	for i, sh := range shown {
		out[i] = sh.SHA256()
	}
	return out
}

// showScripts prints the whole script of each hook (escaped) and approves
// nothing: the long form of what a first-approval prompt shows.
func showScripts(ios *iostreams.IOStreams, s *hooks.Setup, hs []hooks.ShellHook) error {
	w := ios.Out
	printLocation(w, s.Loc)
	for _, h := range hs {
		fmt.Fprintf(w, "\n%s  %s\n", esc(h.Event), escCmd(h.Shown()))
		if runs := s.RunsAs(h.Spec); runs != "" {
			fmt.Fprintf(w, "  runs as: %s\n", escCmd(runs))
		}
		fmt.Fprintf(w, "  script: %s\n", esc(orNone(h.Script)))
		sh := s.Show(h)
		if sh.Fingerprint.Err != nil {
			fmt.Fprintf(w, "  (the script cannot be read: %s)\n", esc(sh.Fingerprint.Err.Error()))
			continue
		}
		fmt.Fprintf(w, "  sha256: %s\n", sh.SHA256())
		lines, _, ok := sh.Head(math.MaxInt)
		if !ok {
			fmt.Fprintln(w, "  (larger than 1 MiB: not shown)")
			continue
		}
		for _, l := range lines {
			fmt.Fprintf(w, "  │ %s\n", esc(strings.TrimSuffix(l, "\n")))
		}
	}
	fmt.Fprintln(w, "\nNothing approved (--show only shows).")
	return nil
}

// pinsAll reports whether an approval pins every file of its code: each
// pinned file has its sha256 (none could not be read).
func pinsAll(e allowlist.Entry) bool {
	if !e.HasCode() {
		return false
	}
	for _, f := range e.Code {
		if !f.System && f.SHA256 == "" {
			return false
		}
	}
	return true
}
