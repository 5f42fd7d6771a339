package doctor

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// CodeCheckName names the check of a hook's code (SPEC §23).
const CodeCheckName = "code"

// codeChecks judge what the approval pins of the hook's code (SPEC §23,
// §24 item 1): a code that cannot be pinned (a warning; a failure for a
// fail-closed pre_tool_call hook with pinning on), an approval written
// before §23 whose code holds files its pin does not cover (the same), and
// a protected hook whose approval pins nothing, which the guard refuses.
func codeChecks(pin bool, h hooks.ShellHook) []Check {
	if h.ParseErr != nil || h.NoScript {
		return nil
	}
	accept := fmt.Sprintf("hermes hooks accept %s --event %s", quote(h.Named()), shell.Quote(h.Event))
	severe := CheckWarn
	if pin && h.FailClosed && h.Event == answer.EventPreToolCall {
		severe = CheckFail
	}
	var out []Check
	switch {
	case h.Protected() && h.Approved && !h.Approval.Pinned() && !h.Approval.HasCode():
		out = append(out, Check{CodeCheckName, CheckFail, "approved without a pin (by the agent's own prompt?): the guard refuses it at every firing; pin it with: " + accept})
	case h.Approval.Unpinnable != "" || !h.Code.Pinnable:
		reason := h.Approval.Unpinnable
		if reason == "" {
			reason = h.Code.Reason
		}
		out = append(out, Check{CodeCheckName, severe, "the code behind this command cannot be pinned: " + reason + "; what it runs can change without hermes seeing it (write the program and script as absolute paths, or move the command into a script)"})
	case h.Approved && !h.Approval.HasCode():
		if missed := uncovered(h); len(missed) > 0 {
			out = append(out, Check{CodeCheckName, severe, fmt.Sprintf("approved before hermes pinned a hook's code: %s also decide what runs and are not pinned; %s re-pins it after showing the code", strings.Join(missed, ", "), accept)})
		}
	}
	return out
}

// uncovered are the pinned files of the code that an approval written
// before §23 does not cover: everything but its §4 script.
func uncovered(h hooks.ShellHook) []string {
	var out []string
	for _, f := range h.Code.Files {
		if !f.System && f.Path != h.Script {
			out = append(out, f.Path)
		}
	}
	return out
}
