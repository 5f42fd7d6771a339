package hooks

import (
	"bytes"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/audit"
)

// FailClosedAdvice is what protect, accept, new and doctor say of a guard
// that can block but is not fail-closed (SPEC §25).
const FailClosedAdvice = "when this guard fails (crash, timeout, a missing program, an edit not yet approved) the agent lets the call through; add fail_closed: true"

// blockWords in a script say it can answer block (SPEC §25).
var blockWords = [][]byte{[]byte("block"), []byte("deny"), []byte("exit 2")}

// Blocked is the set of commands (as the audit log names them) that have
// answered block in the audit log: evidence a hook is a guard.
type Blocked map[string]bool

// BlockedInLog reads the audit log for the commands that answered block;
// an unreadable log is no evidence.
func (s *Setup) BlockedInLog() Blocked {
	b := Blocked{}
	_, _ = audit.ReadAll(audit.Path(s.Loc.Home), func(l audit.Line) error {
		if l.Outcome() == audit.OutcomeBlock && l.Command != "" {
			b[l.Command] = true
		}
		return nil
	})
	return b
}

// NeedsFailClosed reports whether h is a pre_tool_call hook that is not
// fail-closed and can block: it answered block in the audit log (blocked;
// nil: not looked) or a policy case (blockedCase), or its script contains
// "block", "deny" or "exit 2".
func NeedsFailClosed(h ShellHook, blocked Blocked, blockedCase bool) bool {
	return NeedsFailClosedWith(h, blocked, blockedCase, allowlist.FingerprintNow)
}

// NeedsFailClosedWith is NeedsFailClosed reading the script through
// fingerprint: an invocation's cache (Setup.Fingerprints.Of) when it
// advises on many hooks of one script (protect --all, SPEC §29 item 2).
func NeedsFailClosedWith(h ShellHook, blocked Blocked, blockedCase bool, fingerprint func(string) allowlist.Fingerprint) bool {
	if h.Event != answer.EventPreToolCall || h.FailClosed {
		return false
	}
	if blockedCase || blocked[h.Command] || blocked[h.Shown()] || blocked[h.InnerShown()] {
		return true
	}
	if !h.HasScriptFile() {
		return false
	}
	fp := fingerprint(h.Script)
	for _, w := range blockWords {
		if bytes.Contains(fp.Content, w) {
			return true
		}
	}
	return false
}
