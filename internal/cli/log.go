package cli

import (
	"context"
	"errors"
	"fmt"

	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/watch"
)

type logOptions struct {
	f *Factory
	auditFilterFlags
	Follow bool
	JSON   bool
}

func newCmdLog(f *Factory, runF func(*logOptions) error) *cobra.Command {
	opts := &logOptions{f: f}
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show the runs of hooks recorded in the audit log",
		Long: `Show what the hooks did: every run recorded in the audit log
(<HERMES_HOME>/logs/hooks.jsonl and the rotated hooks.jsonl.1), oldest first,
one line each: time (UTC), event, hook, outcome, duration, exit code or
signal, and who fired it (run-event, or exec: the agent through the guard).

Outcomes (--status, comma-separated or repeated): ok, block, modify, approve,
context, failed (spawn error, non-zero exit or signal), timeout, refused (by
the guard), skipped, interrupted.

--follow keeps printing lines as they are appended, across rotations, until
Ctrl-C (exit 130). --json prints JSON Lines: each line as stored in the log.
Lines that cannot be read (torn by a full disk, or not written by hermes)
are skipped with one warning.`,
		Example: `  hermes hooks log --since 1h --status block,failed
  hermes hooks log --hook '~/.hermes/agent-hooks/guard.sh' --follow
  hermes hooks log --json --event pre_tool_call | jq .elapsed_seconds`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := opts.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return logRun(cmd, opts)
		},
	}
	opts.register(f, cmd, auditFilterUsage{
		event:  "only runs of this event",
		hook:   "only runs of this hook (a shell hook's command as written, a gateway hook's name)",
		since:  "only runs since this long ago (90m, 12h, 7d) or this time (2026-12-01)",
		status: "only runs with these outcomes (see above)",
	})
	fl := cmd.Flags()
	fl.BoolVarP(&opts.Follow, "follow", "f", false, "keep printing new runs until Ctrl-C")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON Lines, each line as stored (see docs/json.md)")
	return cmd
}

func logRun(cmd *cobra.Command, opts *logOptions) error {
	loc, err := opts.f.Locate(cmd)
	if err != nil {
		return err
	}
	filter, err := opts.filter(opts.f, opts.f.Now())
	if err != nil {
		return err
	}
	ios := opts.f.IO
	path := audit.Path(loc.Home)
	w, cs := ios.Out, ios.Colors()
	if !opts.JSON {
		printLocation(w, loc)
		fmt.Fprintf(w, "Audit log: %s\n", esc(path))
	}
	shown := 0
	print := func(l audit.Line) error {
		if !filter.Match(&l) {
			return nil
		}
		shown++
		if opts.JSON {
			_, err := w.Write(append(l.Raw, '\n'))
			return err
		}
		if shown == 1 {
			fmt.Fprintln(w)
		}
		_, err := fmt.Fprintln(w, logLine(cs, &l))
		return err
	}
	// The reading and printing run off the main goroutine: with nobody
	// reading stdout a write blocks for ever, and Ctrl-C or SIGTERM must
	// still end hermes with exit 130 at once (SPEC §29 item 7). What is
	// left blocked only reads the log.
	ctx := cmd.Context()
	if !opts.Follow {
		skipped, err := whileOutputFlows(ctx, func() ([]audit.Skipped, error) { return audit.ReadAll(path, print) })
		if errors.Is(err, context.Canceled) || ctx != nil && ctx.Err() != nil {
			return CancelError
		}
		if err != nil {
			return fmt.Errorf("cannot read the audit log %s: %w", esc(path), err)
		}
		warnSkipped(ios, skipped)
		if shown == 0 && !opts.JSON {
			fmt.Fprintln(w, "\nNo runs recorded"+logFilterNote(opts)+".")
		}
		return nil
	}
	wait, stop := followWait(ctx, path)
	defer stop()
	skipped, err := whileOutputFlows(ctx, func() ([]audit.Skipped, error) {
		return audit.FollowGaps(path, print, wait, warnRotatedAway(ios, path))
	})
	warnSkipped(ios, skipped)
	if errors.Is(err, context.Canceled) {
		return CancelError
	}
	if err != nil {
		return fmt.Errorf("cannot read the audit log %s: %w", esc(path), err)
	}
	return nil
}

// warnRotatedAway says on stderr that log --follow fell so far behind
// (its reader slow, or it was stopped) that lines were rotated away before
// it could show them.
func warnRotatedAway(ios *iostreams.IOStreams, path string) func(int) {
	return func(lines int) {
		what := "lines were"
		switch {
		case lines == 1:
			what = "1 line was"
		case lines > 1:
			what = fmt.Sprintf("%d lines were", lines)
		}
		fmt.Fprintf(ios.ErrOut, "%s %s rotated away from %s before they could be shown (the log rotates at 16 MiB; follow kept up again from %s)\n",
			ios.ErrColors().WarningIcon(), what, esc(path), esc(audit.RotatedPath(path)))
	}
}

// outputGrace is how long an interrupted log waits for its reader to stop
// on its own (and report what it skipped) before leaving it blocked.
const outputGrace = 200 * time.Millisecond

// whileOutputFlows runs fn, which reads the log and prints, and returns its
// result. When ctx ends (Ctrl-C, SIGTERM) and fn has not returned within
// outputGrace — its write to a stdout nobody reads is blocked for ever —
// it returns ctx.Err() and leaves fn behind: fn writes no file.
func whileOutputFlows[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	return awaitResult(ctx, outputGrace, fn)
}

// logFilterNote says which filters left nothing.
func logFilterNote(opts *logOptions) string {
	var parts []string
	if opts.Event != "" {
		parts = append(parts, "event "+esc(opts.Event))
	}
	if opts.Hook != "" {
		parts = append(parts, "hook "+escCmd(opts.Hook))
	}
	if opts.Since != "" {
		parts = append(parts, "since "+esc(opts.Since))
	}
	if len(opts.Status) > 0 {
		parts = append(parts, "status "+esc(strings.Join(opts.Status, ",")))
	}
	if len(parts) == 0 {
		return ""
	}
	return " matching " + strings.Join(parts, ", ")
}

// logLine is one run, one line: time, event, hook, outcome, duration,
// exit or signal, via.
func logLine(cs iostreams.Palette, l *audit.Line) string {
	outcome := outcomeWord(cs, l.Outcome())
	if l.Refusal != "" {
		outcome += " (" + esc(l.Refusal) + ")"
	}
	exit := "-"
	switch {
	case l.Signal != 0:
		exit = fmt.Sprintf("signal %d", l.Signal)
	case l.ExitCode != nil:
		exit = fmt.Sprintf("exit %d", *l.ExitCode)
	case l.Error != "":
		exit = "error: " + esc(l.Error)
	}
	via := l.Via
	if via == "" {
		via = audit.ViaRunEvent // lines written before the guard
	}
	hook := escCmd(l.Hook())
	if l.Kind == "gateway" {
		hook = "gateway " + hook
	}
	took := "-" // nothing ran
	if l.Ran() {
		took = formatSeconds(l.Elapsed)
	}
	return fmt.Sprintf("%s  %s  %s  %s  %s  %s  via %s", l.Time.UTC().Format("2006-01-02T15:04:05Z"),
		cs.Cyan(esc(l.Event)), hook, outcome, took, exit, esc(via))
}

// followWait is what log --follow waits on between reads: a change in the
// logs folder, a one-second tick (a folder that cannot be watched, or does
// not exist yet), or the end of ctx (Ctrl-C).
func followWait(ctx context.Context, path string) (wait func() error, stop func()) {
	tick := time.NewTicker(time.Second)
	events := make(chan struct{}, 1)
	wctx, cancel := context.WithCancel(ctx)
	var w *watch.Watcher
	if nw, err := watch.New(); err == nil {
		if err := nw.Set([]string{path, audit.RotatedPath(path)}); err == nil {
			w = nw
			go func() {
				for {
					if _, err := w.Wait(wctx, 0); err != nil {
						return
					}
					select {
					case events <- struct{}{}:
					default:
					}
				}
			}()
		} else {
			nw.Close()
		}
	}
	wait = func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-events:
		case <-tick.C:
		}
		return nil
	}
	stop = func() {
		cancel()
		tick.Stop()
		if w != nil {
			w.Close()
		}
	}
	return wait, stop
}
