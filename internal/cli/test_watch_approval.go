package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// unapprovedInWatch says, for test --cases --watch, which selected hooks'
// scripts changed since they were approved (SPEC §25): one line each, with
// the command that approves the change. It returns true when one of them
// is protected: its guard refuses it, so every case would fail for that
// alone, and the round runs no case.
func unapprovedInWatch(opts *testOptions, e *hooks.Engine) (stop bool) {
	list, _, err := e.Store.Read()
	if err != nil {
		return false
	}
	ios := opts.f.IO
	cs := ios.ErrColors()
	for _, h := range opts.selection().Filter(e.ShellHooks(list)) {
		if !h.Approved || h.Drift != allowlist.DriftModified || !h.Blocked() {
			continue
		}
		name := shell.Quote(h.Named())
		if h.Protected() {
			stop = true
			fmt.Fprintf(ios.ErrOut, "%s %s changed and is no longer approved: its guard refuses it, so no case was run; approve it with: hermes hooks accept %s --event %s (next time, hermes hooks edit %s approves the change as it lands)\n",
				cs.WarningIcon(), esc(h.Script), name, shell.Quote(h.Event), name)
			continue
		}
		fmt.Fprintf(ios.ErrOut, "%s %s changed and is no longer approved: the cases run it, run-event would skip it; approve it with: hermes hooks accept %s --event %s\n",
			cs.WarningIcon(), esc(h.Script), name, shell.Quote(h.Event))
	}
	return stop
}
