package cli

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/spf13/cobra"
)

type listOptions struct {
	f    *Factory
	JSON bool
}

func newCmdList(f *Factory, runF func(*listOptions) error) *cobra.Command {
	opts := &listOptions{f: f}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "Show every configured hook and whether it is approved",
		Long: `Show all shell hooks grouped by event, with their approval state and whether
their script changed since approval; then gateway hooks and outbound webhooks.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

type listJSON struct {
	whereJSON
	ShellHooks       []shellHookJSON     `json:"shell_hooks"`
	GatewayHooks     []gatewayHookJSON   `json:"gateway_hooks"`
	OutboundWebhooks []webhookJSON       `json:"outbound_webhooks"`
	Diagnostics      []config.Diagnostic `json:"diagnostics"`
}

type shellHookJSON struct {
	Event string `json:"event"`
	commandJSON
	Matcher    *string `json:"matcher"`
	Timeout    int     `json:"timeout"`
	FailClosed bool    `json:"fail_closed"`
	Script     *string `json:"script"`
	// SHA256 is the script's sha256 now (what accept --sha256 takes);
	// null when it cannot be read.
	SHA256     *string `json:"sha256"`
	Approved   bool    `json:"approved"`
	ApprovedAt *string `json:"approved_at"`
	Drift      *string `json:"drift"`
	Trusted    bool    `json:"trusted"`
	Executable bool    `json:"executable"`
	// Disabled: under hooks_disabled: (SPEC §27): the agent does not run
	// it; its approval is kept.
	Disabled bool `json:"disabled"`
	// Pinnable is false (else absent) when the hook's code cannot be
	// pinned: it is approved as its command string (SPEC §23).
	Pinnable *bool `json:"pinnable,omitempty"`
	// Changed names the files of the code that differ from the approval.
	Changed []string `json:"changed,omitempty"`
}

type gatewayHookJSON struct {
	Name     string   `json:"name"`
	Dir      string   `json:"dir"`
	Events   []string `json:"events"`
	Enabled  bool     `json:"enabled"`
	Loaded   bool     `json:"loaded"`
	Handler  *string  `json:"handler"`
	Problems []string `json:"problems"`
	// Unsafe names who else could change the hook (SPEC §13.2 rule 3):
	// run-event and test do not run it, the agent would load it.
	Unsafe *string `json:"unsafe"`
}

type webhookJSON struct {
	Label   string   `json:"label"`
	URL     string   `json:"url"`
	Events  []string `json:"events"`
	Matcher *string  `json:"matcher"`
	Timeout int      `json:"timeout"`
	Signed  bool     `json:"signed"`
}

func listRun(cmd *cobra.Command, opts *listOptions) error {
	s, err := opts.f.LoadWithAllowlist(cmd)
	if err != nil {
		return err
	}
	s.ForgetTree()
	list, warnings, err := s.Store.Read()
	if err != nil {
		return err
	}
	gw := s.GatewayHooks()
	if err := s.GatewayError(); err != nil {
		return err
	}
	ios := opts.f.IO
	// HOOK.yaml problems belong with the config's: on stderr and in
	// diagnostics, besides each gateway hook's own problems.
	diags := s.Diagnostics()
	for _, g := range gw {
		diags = append(diags, g.Diagnostics()...)
	}
	printWarnings(ios, diags, warnings)
	if opts.JSON {
		out := listJSON{whereJSON: where(s.Loc), ShellHooks: []shellHookJSON{},
			GatewayHooks: []gatewayHookJSON{}, OutboundWebhooks: []webhookJSON{},
			Diagnostics: diags}
		for _, g := range gw {
			out.GatewayHooks = append(out.GatewayHooks, gatewayHookJSON{Name: g.Name, Dir: g.Dir,
				Events: nonNil(g.Events), Enabled: g.Enabled, Loaded: g.Loaded,
				Handler: pyjson.NullIfEmpty(g.Handler), Problems: nonNil(g.Problems), Unsafe: unsafeText(g.Unsafe)})
		}
		for _, w := range s.Parsed.Webhooks {
			out.OutboundWebhooks = append(out.OutboundWebhooks, webhookJSON{Label: w.Name, URL: w.Shown,
				Events: nonNil(w.Events), Matcher: matcherSource(w.Matcher), Timeout: w.Timeout, Signed: w.Signed})
		}
		return streamListJSON(ios.Out, out, s, list)
	}
	// Buffered: a line a write was three write(2)s per hook, 2.3 million
	// for a config of 755,000 hooks (SPEC §29 item 2).
	w := bufio.NewWriterSize(ios.Out, 64<<10)
	defer w.Flush()
	cs := ios.Colors()
	printLocation(w, s.Loc)
	streamShellHooks(w, cs, s, list)
	renderDisabledHooks(w, cs, s.Parsed.Disabled)
	renderGatewayHooks(w, cs, s, gw)
	renderWebhooks(w, cs, s.Parsed.Webhooks)
	return nil
}

func shellHookToJSON(h hooks.ShellHook) shellHookJSON {
	j := shellHookJSON{Event: h.Event, commandJSON: commandOf(h.Spec), Matcher: matcherSource(h.Matcher),
		Timeout: h.Timeout, FailClosed: h.FailClosed, Script: pyjson.NullIfEmpty(h.Script),
		Approved: h.Approved, Trusted: h.Allowed() && !h.Disabled, Executable: h.ExecErr == nil, Disabled: h.Disabled}
	if h.Approved {
		j.ApprovedAt = pyjson.NullIfEmpty(h.Approval.ApprovedAt)
		j.Drift = pyjson.NullIfEmpty(string(h.Drift))
		j.Changed = h.Changed
	}
	if !h.NoScript && h.ParseErr == nil && (!h.Code.Pinnable || h.Approval.Unpinnable != "") {
		f := false
		j.Pinnable = &f
	}
	return j
}

func matcherSource(m *hookspec.Matcher) *string {
	if m == nil {
		return nil
	}
	return &m.Source
}

func renderShellHooks(w io.Writer, cs iostreams.Palette, shellHooks []hooks.ShellHook) {
	fmt.Fprintf(w, "\n%s\n", cs.Bold("Shell hooks"))
	if len(shellHooks) == 0 {
		fmt.Fprintln(w, "  No shell hooks configured.")
		return
	}
	// Grouped by index: a ShellHook is a large value, and copying 755,000
	// of them into groups cost 360 MB (SPEC §29 item 2).
	byEvent := map[string][]int{}
	var events []string
	for i, h := range shellHooks {
		if _, seen := byEvent[h.Event]; !seen {
			events = append(events, h.Event)
		}
		byEvent[h.Event] = append(byEvent[h.Event], i)
	}
	sort.Strings(events)
	for _, ev := range events {
		fmt.Fprintf(w, "\n  %s\n", cs.Cyan(esc(ev)))
		for _, i := range byEvent[ev] {
			renderShellHook(w, cs, &shellHooks[i])
		}
	}
}

// renderDisabledHooks lists the hooks of hooks_disabled: (SPEC §27), a
// section of their own: the agent runs none of them.
func renderDisabledHooks(w io.Writer, cs iostreams.Palette, disabled []hookspec.Spec) {
	if len(disabled) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", cs.Bold("Disabled shell hooks (hooks_disabled: the agent does not run them)"))
	for _, sp := range disabled {
		fmt.Fprintf(w, "  %s  %s%s\n", cs.Cyan(esc(sp.Event)), esc(sp.Named()), protectedMark(sp))
	}
	fmt.Fprintln(w, "  Switch one back on with: hermes hooks enable COMMAND (or --all)")
}

func renderShellHook(w io.Writer, cs iostreams.Palette, h *hooks.ShellHook) {
	// Written a piece at a time, not through fmt or by joining strings:
	// this runs once per hook (SPEC §29 item 2's 755,000).
	icon, state := cs.FailureIcon(), "not allowlisted"
	switch {
	case h.Approved && (h.Blocked() || h.Unsafe != nil || h.Refusal != ""):
		icon, state = cs.WarningIcon(), blockWords(h.Reason())
	case h.Approved:
		icon, state = cs.SuccessIcon(), "allowed"
	}
	put(w, "    ", icon, " ", state, "  ", escCmd(h.Spec.Named()), protectedMark(h.Spec), "\n        ")
	if h.Matcher != nil {
		put(w, "matcher: ", esc(h.Matcher.Source), "  ")
	}
	put(w, "timeout: ", strconv.Itoa(h.Timeout), "s")
	if h.FailClosed {
		put(w, "  fail_closed: true")
	}
	put(w, "\n")
	switch {
	case h.ParseErr != nil:
		put(w, "        ", cs.FailureIcon(), " ", esc(h.ParseErr.Error()), "\n")
	case h.ExecErr != nil:
		put(w, "        script: ", esc(h.Script), "  ", cs.FailureIcon(), " ", esc(h.ExecErr.Error()), "\n")
	case h.NoScript:
		put(w, "        script: none (a pipeline of programs: the command string is what is approved)\n")
	default:
		put(w, "        script: ", esc(h.Script), "\n")
	}
	if h.Approved {
		// Both come from the allowlist file, which anyone with write
		// access to it (or the agent) may have filled.
		put(w, "        approved_at: ", esc(h.Approval.ApprovedAt))
		if h.Approval.ApprovedVia != "" {
			put(w, " (via ", esc(h.Approval.ApprovedVia), ")")
		}
		put(w, "\n        drift: ", string(h.Drift), esc(driftNote(h)), "\n")
	}
}

// put writes each of parts to w.
func put(w io.Writer, parts ...string) {
	sw, ok := w.(io.StringWriter)
	for _, p := range parts {
		if ok {
			sw.WriteString(p)
		} else {
			io.WriteString(w, p)
		}
	}
}

// driftNote explains a drift state in a few words.
func driftNote(h *hooks.ShellHook) string {
	switch {
	case h.NoScript:
		return " — no script file: the command string is what is approved"
	case h.Blocked() && h.Drift == "missing":
		return " — the script cannot be read, so it cannot be checked against its approval: not run"
	case h.Blocked():
		return fmt.Sprintf(" — script modified since approval; review with: hermes hooks diff %s", shell.Quote(h.Spec.Named()))
	case h.Drift == "modified":
		return " — script modified since approval (not pinned: it still fires)"
	case h.Drift == "touched":
		return " — modification time changed, content identical"
	case h.Drift == "missing":
		return " — the script cannot be read"
	case h.Approval.ScriptSHA256 == "":
		return " — approved without a content hash (re-approve to pin it)"
	}
	return ""
}

func renderGatewayHooks(w io.Writer, cs iostreams.Palette, s *hooks.Setup, gw []gateway.Hook) {
	fmt.Fprintf(w, "\n%s (%s)\n", cs.Bold("Gateway hooks"), esc(s.GatewayDir()))
	if len(gw) == 0 {
		fmt.Fprintln(w, "  No gateway hooks.")
		return
	}
	for _, g := range gw {
		state := cs.SuccessIcon() + " loaded"
		switch {
		case !g.Enabled:
			state = cs.InfoIcon() + " disabled"
		case !g.Loaded:
			state = cs.FailureIcon() + " not loaded"
		case g.Unsafe != nil:
			state = cs.FailureIcon() + " not run: someone else can change it"
		}
		fmt.Fprintf(w, "\n  %s  %s\n", state, cs.Cyan(esc(g.Name)))
		if g.Unsafe != nil {
			fmt.Fprintf(w, "        %s %s (the agent would load it; run-event and test do not run it)\n", cs.FailureIcon(), esc(g.Unsafe.Error()))
		}
		fmt.Fprintf(w, "        folder: %s\n", esc(g.Dir))
		if len(g.Events) > 0 {
			fmt.Fprintf(w, "        events: %s\n", esc(strings.Join(g.Events, ", ")))
		}
		if g.Handler != "" {
			fmt.Fprintf(w, "        handler: %s\n", esc(g.Handler))
		}
		for _, p := range g.Problems {
			fmt.Fprintf(w, "        %s %s\n", cs.FailureIcon(), esc(p))
		}
		for _, p := range g.Warnings {
			fmt.Fprintf(w, "        %s %s\n", cs.WarningIcon(), esc(p))
		}
	}
}

func renderWebhooks(w io.Writer, cs iostreams.Palette, webhooks []hookspec.Webhook) {
	fmt.Fprintf(w, "\n%s\n", cs.Bold("Outbound webhooks"))
	if len(webhooks) == 0 {
		fmt.Fprintln(w, "  No outbound webhooks.")
		return
	}
	for _, h := range webhooks {
		signed := cs.Green("signed")
		if !h.Signed {
			signed = cs.Yellow("UNSIGNED")
		}
		fmt.Fprintf(w, "\n  %s  %s\n", cs.Cyan(esc(h.Name)), signed)
		if h.Name != h.Shown {
			fmt.Fprintf(w, "        url: %s\n", esc(h.Shown))
		}
		attrs := []string{"events: " + esc(strings.Join(h.Events, ", "))}
		if h.Matcher != nil {
			attrs = append(attrs, "matcher: "+esc(h.Matcher.Source))
		}
		attrs = append(attrs, fmt.Sprintf("timeout: %ds", h.Timeout))
		fmt.Fprintf(w, "        %s\n", strings.Join(attrs, "  "))
	}
}

// unsafeText is who else could change a gateway hook, null when nobody.
func unsafeText(err error) *string {
	if err == nil {
		return nil
	}
	return pyjson.NullIfEmpty(err.Error())
}
