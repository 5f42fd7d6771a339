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
	var a failClosedAdvice
	for _, h := range hs {
		a.advise(f, s, h)
	}
}

// failClosedAdvice is the audit log's blocks, read when first needed.
type failClosedAdvice struct {
	blocked hooks.Blocked
	read    bool
}

func (a *failClosedAdvice) advise(f *Factory, s *hooks.Setup, h hooks.ShellHook) {
	if h.Event != "pre_tool_call" || h.FailClosed {
		return
	}
	if !a.read {
		a.blocked, a.read = s.BlockedInLog(), true
	}
	if !hooks.NeedsFailClosedWith(h, a.blocked, false, s.Fingerprints.Of) {
		return
	}
	fmt.Fprintf(f.IO.ErrOut, "%s %s hook %s: %s (hermes hooks protect --fail-closed %s)\n",
		f.IO.ErrColors().WarningIcon(), esc(h.Event), esc(h.Named()), hooks.FailClosedAdvice, shell.Quote(h.Named()))
}
