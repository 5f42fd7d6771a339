package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/record"
	"github.com/hermes-hooks/hermes/internal/record/casefile"
)

type casesFromLogOptions struct {
	f *Factory
	auditFilterFlags
	Limit  int
	Output string
}

func newCmdCasesFromLog(f *Factory, runF func(*casesFromLogOptions) error) *cobra.Command {
	opts := &casesFromLogOptions{f: f}
	cmd := &cobra.Command{
		Use:   "from-log",
		Short: "Write a case file from the recorded firings: replay yesterday's traffic",
		Long: `Write a case file from the firings recorded with hooks_record: true (or
HERMES_HOOKS_RECORD=1): each case's payload is the one the agent sent (as
stored, redacted), its expect the decision the hooks gave then (the firing's
aggregated outcome: action, and message_contains for a block), its name the
tool and a short digest of the input ("terminal: rm -rf / (a1b2c3)"). A
firing with the same event, tool input and decision as an earlier one is
kept once. 'hermes hooks test --cases FILE' then replays today's hooks
against it: each changed decision is a failing case.

Only pre_tool_call and pre_verify firings decide something a case can
expect; others, payloads over 1 MiB (stored cut) and firings whose payload
is no longer kept are skipped, and the file's first comment says how many.
--hook and --status select firings in which a hook of that name ran or
gave that outcome (as in 'hermes hooks log'). Without --output the cases
are printed on stdout.`,
		Example: `  hermes hooks cases from-log --since 7d --output traffic.yaml
  hermes hooks cases from-log --status block --limit 50
  hermes hooks test --cases traffic.yaml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.check(); err != nil {
				return err
			}
			if opts.Limit < 0 {
				return usageErrorf("invalid --limit %d: want a number of cases, 1 or more", opts.Limit)
			}
			if runF != nil {
				return runF(opts)
			}
			return casesFromLogRun(cmd, opts)
		},
	}
	opts.register(f, cmd, auditFilterUsage{
		event:  "only firings of this event",
		hook:   "only firings in which this hook ran (its command as written)",
		since:  "only firings since this long ago (90m, 12h, 7d) or this time (2026-12-01)",
		status: "only firings in which a hook had one of these outcomes (as in 'hermes hooks log')",
	})
	fl := cmd.Flags()
	fl.IntVar(&opts.Limit, "limit", 0, "keep the newest `N` cases (0: all)")
	fl.StringVarP(&opts.Output, "output", "o", "", "write the cases to `FILE` instead of stdout")
	return cmd
}

func casesFromLogRun(cmd *cobra.Command, opts *casesFromLogOptions) error {
	loc, err := opts.f.Locate(cmd)
	if err != nil {
		return err
	}
	now := opts.f.Now()
	filter, err := opts.filter(opts.f, now)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	sel := casefile.Selection{Limit: opts.Limit, Filter: filter}
	built, err := casefile.FromLog(loc.Home, sel)
	warnSkipped(ios, built.Unreadable)
	if err != nil {
		return fmt.Errorf("cannot read the audit log %s: %w", esc(audit.Path(loc.Home)), err)
	}
	if err := writeCases(opts.f, opts.Output, built.Header(loc.Home, sel, now), built.Cases, casefile.FromLogMadeBy); err != nil {
		return err
	}
	w := ios.ErrOut
	if built.Firings == 0 {
		fmt.Fprintf(w, "%s no recorded firings to make cases of in %s", ios.Colors().WarningIcon(), esc(record.Dir(loc.Home)))
		if !recordSettings(opts.f, loc.ConfigPath).On {
			fmt.Fprint(w, "; recording is off: turn it on with hooks_record: true in the config (or HERMES_HOOKS_RECORD=1 in the agent's environment)")
		}
		fmt.Fprintln(w)
	}
	for _, reason := range built.SkippedReasons() {
		fmt.Fprintf(w, "skipped %d firing(s): %s\n", built.Skipped[reason], reason)
	}
	if opts.Output != "" {
		fmt.Fprintf(w, "Wrote %d case(s) from %d recorded firing(s) to %s.\n", len(built.Cases), built.Firings, esc(opts.Output))
	}
	return nil
}
