package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/suggest"
)

// Helpers of the commands that read the audit log (log, stats, cases
// from-log).

// auditFilterFlags are the flags that select lines of the audit log by
// event, hook, time and outcome (log, cases from-log).
type auditFilterFlags struct {
	Event  string
	Hook   string
	Since  string
	Status []string
}

// auditFilterUsage is each flag's help, worded for the command (a run of
// log, a firing of cases from-log).
type auditFilterUsage struct{ event, hook, since, status string }

// register adds --event, --hook, --since and --status to cmd, with their
// completions.
func (a *auditFilterFlags) register(f *Factory, cmd *cobra.Command, u auditFilterUsage) {
	fl := cmd.Flags()
	fl.StringVar(&a.Event, "event", "", u.event)
	fl.StringVar(&a.Hook, "hook", "", u.hook)
	fl.StringVar(&a.Since, "since", "", u.since)
	fl.StringSliceVar(&a.Status, "status", nil, u.status)
	_ = cmd.RegisterFlagCompletionFunc("event", completeEvents(f))
	_ = cmd.RegisterFlagCompletionFunc("hook", completeCommands(f))
	_ = cmd.RegisterFlagCompletionFunc("since", cobra.NoFileCompletions)
	_ = cmd.RegisterFlagCompletionFunc("status", func(_ *cobra.Command, _ []string, prefix string) ([]string, cobra.ShellCompDirective) {
		return filterPrefix(audit.Outcomes, prefix), cobra.ShellCompDirectiveNoFileComp
	})
}

// check is the usage error for a --status that names no outcome.
func (a *auditFilterFlags) check() error {
	for _, s := range a.Status {
		if !isOutcome(s) {
			return usageErrorf("invalid --status %q: want one of %s", s, strings.Join(audit.Outcomes, ", "))
		}
	}
	return nil
}

// filter is the audit.Filter the flags ask for, --since read against
// now. An --event this build does not know is warned about, not refused.
func (a *auditFilterFlags) filter(f *Factory, now time.Time) (audit.Filter, error) {
	since, err := sinceTime(a.Since, now)
	if err != nil {
		return audit.Filter{}, err
	}
	warnUnknownEvent(f.IO, a.Event)
	return audit.Filter{Event: a.Event, Hooks: hookNames(f, a.Hook), Since: since, Outcomes: a.Status}, nil
}

func isOutcome(s string) bool {
	for _, o := range audit.Outcomes {
		if s == o {
			return true
		}
	}
	return false
}

// sinceTime reads a --since value ("" for none) against now.
func sinceTime(flag string, now time.Time) (time.Time, error) {
	if flag == "" {
		return time.Time{}, nil
	}
	t, err := parseSince(flag, now)
	if err != nil {
		return time.Time{}, usageErrorf("invalid --since %q: %v", flag, err)
	}
	return t, nil
}

// hookNames are the names --hook may have in the audit log: the command
// given, and when it names a configured hook (as accept and revoke take
// it: as written, as expanded, or the command a protected hook guards),
// every form of that hook's command. A config that cannot be read leaves
// the command as given: the log is what one reads when things are broken.
func hookNames(f *Factory, hook string) []string {
	if hook == "" {
		return nil
	}
	names := []string{hook}
	s, err := hooks.Load(f.request())
	if err != nil {
		return names
	}
	for _, spec := range s.Parsed.Specs {
		if !spec.Names(hook) {
			continue
		}
		names = append(names, spec.Command, spec.Shown())
		if spec.Protected() {
			names = append(names, spec.Inner, spec.InnerShown())
		}
	}
	return names
}

// hookRenames maps each form a configured shell hook's command may have
// in the audit log (as written, as expanded; for a protected hook, the
// wrapped forms the guard and run-event write) to the one stats shows: the
// command as written, a protected hook's inner one (as list shows it). Keys
// are event and command. nil when the config cannot be read.
func hookRenames(f *Factory) map[[2]string]string {
	s, err := hooks.Load(f.request())
	if err != nil {
		return nil
	}
	out := map[[2]string]string{}
	for _, spec := range s.Parsed.Specs {
		shown := spec.Shown()
		forms := []string{spec.Command, shown}
		if spec.Protected() {
			shown = spec.InnerShown()
			inner, _ := guard.AuditCommand(spec.Command) // how lines name it now
			forms = append(forms, spec.Inner, shown, inner)
		}
		for _, c := range forms {
			out[[2]string{spec.Event, c}] = shown
		}
	}
	return out
}

// warnSkipped is the one warning about lines log and stats could not read.
func warnSkipped(ios *iostreams.IOStreams, skipped []audit.Skipped) {
	if len(skipped) == 0 {
		return
	}
	n := 0
	var paths []string
	for _, s := range skipped {
		n += s.Lines
		if len(paths) == 0 || paths[len(paths)-1] != s.Path {
			paths = append(paths, esc(s.Path))
		}
	}
	fmt.Fprintf(ios.ErrOut, "%s skipped %d unreadable line(s) in %s (torn by a full disk or not written by hermes)\n",
		ios.ErrColors().WarningIcon(), n, strings.Join(paths, " and "))
}

// warnUnknownEvent says when --event names no event this build knows: the
// log may hold other events (an agent newer than hermes), so it is no
// error, but a typo must not look like "no runs".
func warnUnknownEvent(ios *iostreams.IOStreams, event string) {
	if event == "" || catalog.IsGatewayEvent(event) || catalog.NewCatalogue(nil).Has(event) {
		return
	}
	msg := fmt.Sprintf("%s unknown event %q", ios.ErrColors().WarningIcon(), event)
	if sug := suggest.Name(event, catalog.NewCatalogue(nil).Names()); sug != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", sug)
	}
	fmt.Fprintln(ios.ErrOut, msg+"; showing the lines logged for it, if any")
}

// outcomeWord colours an outcome: red what stopped the agent or failed,
// yellow what changed its course.
func outcomeWord(cs iostreams.Palette, outcome string) string {
	switch outcome {
	case audit.OutcomeBlock, audit.OutcomeFailed, audit.OutcomeTimeout, audit.OutcomeRefused:
		return cs.Red(outcome)
	case audit.OutcomeModify, audit.OutcomeApprove, audit.OutcomeInterrupted:
		return cs.Yellow(outcome)
	case audit.OutcomeOK:
		return cs.Green(outcome)
	}
	return outcome
}

// formatSeconds prints a duration of seconds short: 12ms, 1.234s, 2m5s.
func formatSeconds(s float64) string {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.3fs", s)
	}
	return d.Round(time.Second).String()
}
