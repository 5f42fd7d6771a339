package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/watch"
)

// watchQuiet is how long the files must stay unchanged after a change
// before running again: an editor's save is often several events.
const watchQuiet = 200 * time.Millisecond

// watchRun runs round, then again whenever the config, a configured script
// or one of extra changes, until Ctrl-C or SIGTERM (exit 130). A round that
// fails (a failed case, a bad case file, a config that does not parse) is
// reported and the watch goes on: the next save may fix it.
func watchRun(cmd *cobra.Command, f *Factory, extra []string, round func() error) error {
	ctx := cmd.Context()
	w, err := watch.New()
	if err != nil {
		return err
	}
	defer w.Close()
	ios := f.IO
	cs := ios.ErrColors()
	var paths []string
	for {
		// Watch first, then run: a save made while the round runs is a
		// change like any other. While the home cannot be located (a
		// HERMES_HOME named explicitly was deleted) the files watched
		// before stay watched, so its coming back is seen (SPEC §22).
		if now, ok := watchPaths(f, extra); ok || paths == nil {
			paths = now
		}
		if err := w.Set(paths); err != nil {
			fmt.Fprintf(ios.ErrOut, "%s %s\n", cs.WarningIcon(), escText(err.Error()))
		}
		err := round()
		if ctx.Err() != nil || errors.Is(err, CancelError) {
			return CancelError
		}
		var exitErr *ExitError
		switch {
		case err == nil, errors.Is(err, SilentError), errors.As(err, &exitErr):
		default:
			fmt.Fprintf(ios.ErrOut, "%s %s\n", cs.FailureIcon(), escText(err.Error()))
		}
		fmt.Fprintf(ios.ErrOut, "\nWatching %d file(s) for changes (Ctrl-C to stop)…\n", len(paths))
		changed, err := w.Wait(ctx, watchQuiet)
		if errors.Is(err, context.Canceled) || ctx.Err() != nil {
			return CancelError
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(ios.ErrOut, "\n%s changed: running again\n\n", esc(changed))
	}
}

// watchPaths are the files whose change means running again: the config
// (every place it is looked for, so creating one counts), the allowlist,
// each configured shell hook's script, and extra. A config that cannot be loaded still
// has its candidates watched; ok is false when not even the home can be
// located (then only extra).
func watchPaths(f *Factory, extra []string) (paths []string, ok bool) {
	loc, err := config.Locate(f.request())
	if err != nil {
		return extra, false
	}
	out := slices.Clone(loc.Searched)
	if s, err := hooks.Load(f.request()); err == nil {
		// An approval given while watching (a script edited, then
		// accepted) is a change too.
		out = append(out, s.Store.Path)
		for _, h := range s.ShellHooks(nil) {
			if filepath.IsAbs(h.Script) {
				out = append(out, h.Script)
			}
		}
	}
	out = append(out, extra...)
	slices.Sort(out)
	return slices.Compact(out), true
}
