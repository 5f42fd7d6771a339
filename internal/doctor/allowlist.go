package doctor

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// AllowlistChecks are doctor's notes about the allowlist as a whole (SPEC
// §13.1, §13 rule 11): stale entries (info, with the hint to prune) and
// hooks whose command carries a secret from the environment, which the
// allowlist then stores in clear (warn). Neither is a problem.
func AllowlistChecks(s *hooks.Setup, list *allowlist.List) []Check {
	var out []Check
	var stale []string
	entries := s.StaleEntries(list)
	for i, shown := range s.ShownEntries(entries) {
		stale = append(stale, fmt.Sprintf("%s %s", entries[i].Event, shown))
	}
	if len(stale) > 0 {
		out = append(out, Check{Name: "stale", Status: CheckInfo, Message: fmt.Sprintf(
			"%d allowlist entry(ies) approve no configured hook: %s; remove them with: hermes hooks prune",
			len(stale), strings.Join(stale, "; "))})
	}
	if n := len(s.Parsed.Disabled); n > 0 {
		var names []string
		for _, sp := range s.Parsed.Disabled {
			names = append(names, sp.Event+" "+sp.Named())
		}
		out = append(out, Check{Name: "disabled", Status: CheckInfo, Message: fmt.Sprintf(
			"%d hook(s) disabled (under hooks_disabled:, the agent does not run them; approvals kept): %s; switch one back on with: hermes hooks enable COMMAND",
			n, strings.Join(names, "; "))})
	}
	for _, spec := range s.Parsed.Specs {
		if !spec.HasSecret() {
			continue
		}
		vars := "${" + strings.Join(spec.Secrets, "}, ${") + "}"
		out = append(out, Check{Name: "secret", Status: CheckWarn, Message: fmt.Sprintf(
			"%s (%s): the value of %s is stored in clear in the allowlist once approved (it holds the expanded command, which the agent matches on), and rotating it un-approves the hook; pass it through the environment instead (the hook inherits it) and take it out of the command",
			spec.Shown(), spec.Event, vars)})
	}
	return out
}
