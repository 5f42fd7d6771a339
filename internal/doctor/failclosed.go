package doctor

import (
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// failClosedChecks warns, for each pre_tool_call hook that can block but
// is not fail-closed, that a failure of it lets the call through (SPEC
// §25); the audit log is read once for all of them. reports are hs's, in
// order.
func failClosedChecks(e *hooks.Engine, hs []hooks.ShellHook, reports []HookReport) {
	var blocked hooks.Blocked
	for i, h := range hs {
		if h.Event != "pre_tool_call" || h.FailClosed {
			continue
		}
		if blocked == nil {
			blocked = e.BlockedInLog()
		}
		if hooks.NeedsFailClosed(h, blocked, false) {
			reports[i].add("fail_closed", CheckWarn, "%s (hermes hooks protect --fail-closed %s; see which faults open it with: hermes hooks doctor --chaos)",
				hooks.FailClosedAdvice, shell.Quote(h.Named()))
		}
	}
}
