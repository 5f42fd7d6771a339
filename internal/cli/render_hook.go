package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// blockWords is the skip reason of a hook pinning stops, as the off-terminal
// warning words it.
func blockWords(reason string) string {
	if rest, ok := strings.CutPrefix(reason, hooks.SkipModified); ok && (rest == "" || strings.HasPrefix(rest, " (")) {
		// " (<path> changed)" names the file of the code (SPEC §23).
		return "script modified since approval" + rest
	}
	return reason
}

// renderShown is what a prompt shows of a script, each line indented: for
// a re-approval the diff against the approved snapshot, else the sha256
// and the first lines of the script.
func renderShown(f *Factory, sh hooks.Shown, indentBy string) string {
	var b strings.Builder
	switch {
	case sh.Hook.Approved && sh.Diff != nil:
		b.WriteString(indentBy[:2] + "What changed since approval:\n")
		b.WriteString(indent(colorDiff(f.IO.Colors(), sh.Diff.Unified), indentBy) + "\n")
	case sh.Fingerprint.Err != nil:
		fmt.Fprintf(&b, "%s(the script cannot be read: %s)\n", indentBy[:2], esc(sh.Fingerprint.Err.Error()))
	default:
		if sh.Hook.Approved {
			// No snapshot to diff against: the script itself, as for a
			// first approval, so nothing is approved unseen (SPEC §13.2
			// rule 7).
			if sh.DiffErr != nil {
				b.WriteString(indentBy[:2] + "What changed since approval:\n")
				b.WriteString(indentBy + "(" + esc(strings.TrimSpace(sh.DiffErr.Error())) + ")\n")
			}
			b.WriteString(indentBy[:2] + "The script now:\n")
		}
		fmt.Fprintf(&b, "%ssha256:  %s\n", indentBy[:2], sh.SHA256())
		lines, total, ok := sh.Head(promptScriptLines)
		if !ok {
			fmt.Fprintf(&b, "%s(larger than 1 MiB: not shown; read it with 'hermes hooks accept --show')\n", indentBy)
			break
		}
		for _, l := range lines {
			// Each line escaped: a \r or an escape sequence in the script
			// must not rewrite what the person reads (SPEC §13 rule 9).
			b.WriteString(indentBy + "│ " + esc(strings.TrimSuffix(l, "\n")) + "\n")
		}
		if total > len(lines) {
			fmt.Fprintf(&b, "%s… %d more line(s): see them all with: hermes hooks accept %s --show\n", indentBy, total-len(lines), pasteQuote(sh.Hook.Shown()))
		}
	}
	return b.String()
}

// renderRun prints one hook's run the way the agent's `hooks test` does.
func renderRun(w io.Writer, cs iostreams.Palette, r hooks.ShellRun, showApproval bool) {
	h := r.Hook
	state := ""
	if showApproval {
		state = cs.SuccessIcon() + " allowed  "
		if a := r.Eval.Answer; a != nil && a.Action == hooks.ActionBlock {
			// "allowed" beside a hook that blocked reads as the call
			// being allowed: say what it means, the hook is approved.
			state = cs.SuccessIcon() + " approved  "
		}
		switch why := wouldSkip(h); {
		case !h.Approved:
			state = cs.FailureIcon() + " not allowlisted (run because test was asked to)  "
		case why != "":
			// run-event would skip it: never call it allowed.
			state = cs.WarningIcon() + " " + esc(why) + " — run because test was asked to  "
		}
	}
	fmt.Fprintf(w, "\n  %s%s%s\n", state, cs.Bold(escCmd(h.Spec.Named())), protectedMark(h.Spec))
	res := r.Result
	if r.GuardRefusal != "" {
		fmt.Fprintf(w, "    %s refused by the guard: %s\n", cs.FailureIcon(), esc(r.GuardRefusal))
	}
	exit := "none"
	if res.ExitCode != nil {
		exit = fmt.Sprint(*res.ExitCode)
	}
	fmt.Fprintf(w, "    exit code: %s   elapsed: %.3fs\n", exit, res.ElapsedSeconds())
	if res.TimedOut {
		fmt.Fprintf(w, "    %s timed out after %ds\n", cs.FailureIcon(), h.Timeout)
	}
	if res.Err != "" && !res.TimedOut {
		fmt.Fprintf(w, "    %s error: %s\n", cs.FailureIcon(), esc(res.Err))
	}
	if h.ExecErr != nil && h.ExecErr.Error() != res.Err {
		// The hint list and doctor give (chmod +x …), not only the error.
		fmt.Fprintf(w, "    %s %s\n", cs.FailureIcon(), esc(h.ExecErr.Error()))
	}
	renderOutput(w, shellOutput(res), true)
	for _, warn := range r.Eval.Warnings {
		fmt.Fprintf(w, "    %s %s\n", cs.WarningIcon(), esc(warn))
	}
	if a := r.Eval.Answer; a != nil {
		// JSON escapes C0 controls but leaves C1, bidi and zero-width
		// characters as they are.
		fmt.Fprintf(w, "    parsed (Hermes wire shape): %s\n", esc(fmt.Sprint(a.Wire())))
	} else {
		fmt.Fprintln(w, "    parsed: nothing (the hook contributed nothing)")
	}
}

// renderOutput shows what a hook printed (a shell hook's or a gateway
// handler's), 400 bytes a stream, and whether the runner cut it at 1 MiB.
func renderOutput(w io.Writer, o outputJSON, judgedWhole bool) {
	if o.Stdout != "" {
		fmt.Fprintf(w, "    stdout:\n%s\n", indent(escText(cut(o.Stdout, 400)), "      "))
	}
	switch {
	case o.StdoutTruncated && judgedWhole:
		// Only what is shown and stored is cut: a shell hook's answer was
		// judged on all of it, up to shell.MaxAnswer (SPEC §29 item 10).
		fmt.Fprintln(w, "      (stdout was longer than 1 MiB: only its first MiB is shown; the answer was read whole, up to 64 MiB)")
	case o.StdoutTruncated:
		fmt.Fprintln(w, "      (stdout was longer than 1 MiB: truncated)")
	}
	if o.Stderr != "" {
		fmt.Fprintf(w, "    stderr:\n%s\n", indent(escText(cut(o.Stderr, 400)), "      "))
	}
	if o.StderrTruncated {
		fmt.Fprintln(w, "      (stderr was longer than 1 MiB: truncated)")
	}
}

// promptScriptLines is how much of a never-approved script a prompt shows.
const promptScriptLines = 40

// wouldSkip is why run-event would not run h without asking, "" when it
// would run it.
func wouldSkip(h hooks.ShellHook) string { return h.Reason() }
