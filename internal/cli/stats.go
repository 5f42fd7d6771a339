package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

type statsOptions struct {
	f     *Factory
	Since string
	JSON  bool
}

func newCmdStats(f *Factory, runF func(*statsOptions) error) *cobra.Command {
	opts := &statsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Sum up the audit log per hook: runs, outcomes, durations",
		Long: `Sum up the runs recorded in the audit log (hooks.jsonl and the rotated
hooks.jsonl.1), per hook: runs, blocks, modifies, approvals, contexts,
failures (spawn errors, timeouts, non-zero exits), timeouts, refusals by the
guard, the median (p50), p95 and longest duration, the last run, and a chart
of runs over time (the window of --since, else since the first run).

A refusal is not a run: a refused hook's durations and last run leave it out.`,
		Example: `  hermes hooks stats --since 7d
  hermes hooks stats --json | jq '.hooks[] | select(.failures > 0)'`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return statsRun(cmd, opts)
		},
	}
	cmd.Flags().StringVar(&opts.Since, "since", "", "only runs since this long ago (90m, 12h, 7d) or this time (2026-12-01)")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	_ = cmd.RegisterFlagCompletionFunc("since", cobra.NoFileCompletions)
	return cmd
}

type statsJSON struct {
	whereJSON
	Since *string         `json:"since"`
	Hooks []hookStatsJSON `json:"hooks"`
}

// hookStatsJSON is one hook's sums; a gateway hook's name is its command
// (gateway events are never shell events, so event and command name it).
type hookStatsJSON struct {
	Event     string   `json:"event"`
	Command   string   `json:"command"`
	Runs      int      `json:"runs"`
	Blocks    int      `json:"blocks"`
	Modifies  int      `json:"modifies"`
	Approvals int      `json:"approvals"`
	Contexts  int      `json:"contexts"`
	Failures  int      `json:"failures"`
	Timeouts  int      `json:"timeouts"`
	Refusals  int      `json:"refusals"`
	P50       *float64 `json:"p50_seconds"`
	P95       *float64 `json:"p95_seconds"`
	Max       *float64 `json:"max_seconds"`
	LastRun   *string  `json:"last_run"`
}

func statsRun(cmd *cobra.Command, opts *statsOptions) error {
	loc, err := opts.f.Locate(cmd)
	if err != nil {
		return err
	}
	now := opts.f.Now()
	since, err := sinceTime(opts.Since, now)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	path := audit.Path(loc.Home)
	stats := audit.NewStats()
	first := time.Time{}
	renames := hookRenames(opts.f)
	skipped, err := audit.ReadAll(path, func(l audit.Line) error {
		if !since.IsZero() && l.Time.Before(since) {
			return nil
		}
		if l.Kind == "shell" {
			if c, ok := renames[[2]string{l.Event, l.Command}]; ok {
				l.Command = c // one row per hook, whoever wrote the line
			}
		}
		if first.IsZero() || l.Time.Before(first) {
			first = l.Time
		}
		stats.Add(&l)
		return nil
	})
	if err != nil {
		return fmt.Errorf("cannot read the audit log %s: %w", esc(path), err)
	}
	warnSkipped(ios, skipped)
	hooks := stats.Hooks()
	if opts.JSON {
		out := statsJSON{whereJSON: where(loc), Hooks: []hookStatsJSON{}}
		if !since.IsZero() {
			s := allowlist.FormatTime(since)
			out.Since = &s
		}
		for _, h := range hooks {
			j := hookStatsJSON{Event: h.Event, Command: h.Hook, Runs: h.Runs, Blocks: h.Blocks,
				Modifies: h.Modifies, Approvals: h.Approvals, Contexts: h.Contexts, Failures: h.Failures,
				Timeouts: h.Timeouts, Refusals: h.Refusals}
			if h.Runs > 0 {
				j.P50, j.P95, j.Max = &h.P50, &h.P95, &h.Max
				last := allowlist.FormatTime(h.LastRun)
				j.LastRun = &last
			}
			out.Hooks = append(out.Hooks, j)
		}
		return writeJSON(ios.Out, out)
	}
	w, cs := ios.Out, ios.Colors()
	printLocation(w, loc)
	fmt.Fprintf(w, "Audit log: %s\n", esc(path))
	if len(hooks) == 0 {
		msg := "\nNo runs recorded"
		if opts.Since != "" {
			msg += " since " + esc(opts.Since)
		}
		fmt.Fprintln(w, msg+".")
		return nil
	}
	from := since
	if from.IsZero() {
		from = first
	}
	to := now
	if !to.After(from) {
		to = from.Add(time.Minute)
	}
	fmt.Fprintf(w, "Runs from %s to %s (chart: %d cells of %s)\n", from.UTC().Format("2006-01-02T15:04:05Z"),
		to.UTC().Format("2006-01-02T15:04:05Z"), chartCells, cellSpan(to.Sub(from)/chartCells))
	for _, h := range hooks {
		fmt.Fprintln(w)
		renderHookStats(w, cs, h, from, to)
	}
	return nil
}

// chartCells is the width of the runs-over-time chart.
const chartCells = 24

func renderHookStats(w interface{ Write([]byte) (int, error) }, cs iostreams.Palette, h *audit.HookStats, from, to time.Time) {
	name := esc(h.Hook)
	if h.Kind == "gateway" {
		name = "gateway " + name
	}
	fmt.Fprintf(w, "%s  %s\n", cs.Cyan(esc(h.Event)), cs.Bold(name))
	counts := []string{fmt.Sprintf("runs %d", h.Runs)}
	for _, c := range []struct {
		n    int
		word string
		red  bool
	}{{h.Blocks, "blocks", true}, {h.Modifies, "modifies", false}, {h.Approvals, "approvals", false},
		{h.Contexts, "contexts", false}, {h.Failures, "failures", true}, {h.Timeouts, "timeouts", true},
		{h.Refusals, "refusals", true}} {
		if c.n == 0 {
			continue
		}
		s := fmt.Sprintf("%s %d", c.word, c.n)
		if c.red {
			s = cs.Red(s)
		}
		counts = append(counts, s)
	}
	fmt.Fprintf(w, "  %s\n", strings.Join(counts, "  "))
	if h.Runs == 0 {
		fmt.Fprintln(w, "  never ran")
		return
	}
	fmt.Fprintf(w, "  p50 %s  p95 %s  max %s  last run %s\n", formatSeconds(h.P50), formatSeconds(h.P95),
		formatSeconds(h.Max), h.LastRun.UTC().Format("2006-01-02T15:04:05Z"))
	fmt.Fprintf(w, "  %s\n", sparkline(audit.Buckets(h.Times, from, to, chartCells)))
}

// cellSpan rounds a chart cell's span to what a reader needs: seconds under
// an hour, minutes under a day, hours beyond.
func cellSpan(d time.Duration) string {
	if d < time.Hour {
		return d.Round(time.Second).String()
	}
	unit := time.Minute
	if d >= 24*time.Hour {
		unit = time.Hour
	}
	d = d.Round(unit)
	if m := d % time.Hour / time.Minute; m != 0 {
		return fmt.Sprintf("%dh%dm", d/time.Hour, m)
	}
	return fmt.Sprintf("%dh", d/time.Hour)
}

// sparkline draws counts as block characters, scaled to the largest; an
// empty cell is a dot, so "no runs" and "a few" look different.
func sparkline(counts []int) string {
	const bars = "▁▂▃▄▅▆▇█"
	levels := []rune(bars)
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	var b strings.Builder
	b.WriteRune('▕')
	for _, c := range counts {
		if c == 0 {
			b.WriteRune('·')
			continue
		}
		i := (c*len(levels) - 1) / top
		b.WriteRune(levels[min(i, len(levels)-1)])
	}
	b.WriteRune('▏')
	return b.String()
}
