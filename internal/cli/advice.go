package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// printFailClosedAdvice says, on stderr, for each of hs that is a guard
// (it can block) but not fail-closed, what a failure of it lets through
// and how to close it (SPEC §25).
func printFailClosedAdvice(f *Factory, s *hooks.Setup, _ *allowlist.List, hs []hooks.ShellHook) {
	var blocked hooks.Blocked
	for _, h := range hs {
		if h.Event != "pre_tool_call" || h.FailClosed {
			continue
		}
		if blocked == nil {
			blocked = s.BlockedInLog()
		}
		if !hooks.NeedsFailClosedWith(h, blocked, false, s.Fingerprints.Of) {
			continue
		}
		fmt.Fprintf(f.IO.ErrOut, "%s %s hook %s: %s (hermes hooks protect --fail-closed %s)\n",
			f.IO.ErrColors().WarningIcon(), esc(h.Event), esc(h.Named()), hooks.FailClosedAdvice, shell.Quote(h.Named()))
	}
}
