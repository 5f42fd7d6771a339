package hookspec

import (
	"fmt"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyre"
)

// Matcher selects tool calls by tool name, the way the agent does: the
// pattern is a Python regular expression that must match the whole name
// (re.fullmatch), so `terminal|patch` matches terminal and patch and not
// terminal2.
type Matcher struct {
	Source string
	// re is nil when Python's re would not compile Source: the agent then
	// compares the tool name with Source exactly, and so do we.
	re *pyre.Regexp
}

// Match reports whether the hook applies to toolName. A nil matcher (no
// matcher given) applies to every tool. A match abandoned for taking too
// long counts as no match; MatchErr says so.
func (m *Matcher) Match(toolName string) bool {
	ok, _ := m.MatchErr(toolName)
	return ok
}

// MatchErr is Match that also reports a match abandoned after
// pyre.MatchTimeout (a pattern that backtracks catastrophically, where the
// agent itself would hang): the hook is then treated as not matching, and
// the error is worth a warning.
func (m *Matcher) MatchErr(toolName string) (bool, error) {
	if m == nil {
		return true, nil
	}
	if m.re == nil {
		return toolName == m.Source, nil
	}
	ok, err := m.re.FullMatch(toolName)
	if err != nil {
		return false, fmt.Errorf("matcher %q on tool %q: %w", m.Source, toolName, err)
	}
	return ok, nil
}

// MatchBy is MatchErr within a budget shared by a firing's matchers: the
// match is abandoned (pyre.ErrTimeout) at deadline.
func (m *Matcher) MatchBy(toolName string, deadline time.Time) (bool, error) {
	if m == nil || m.re == nil {
		return m.MatchErr(toolName)
	}
	ok, err := m.re.FullMatchBy(toolName, deadline)
	if err != nil {
		return false, fmt.Errorf("matcher %q on tool %q: %w", m.Source, toolName, err)
	}
	return ok, nil
}

// MatcherBudget bounds the time one firing spends in matchers, all hooks
// together (SPEC §13.2 rule 5): forty hostile patterns cost this, not forty
// match timeouts.
const MatcherBudget = time.Second

// FiringMatchBudget is MatcherBudget, replaced by tests (the engine's too).
var FiringMatchBudget = MatcherBudget

// errBudgetSpent: a matcher not tried because the firing's budget was
// used up; it could not decide, like a match that timed out.
type errBudgetSpent struct{}

func (errBudgetSpent) Error() string {
	return fmt.Sprintf("not tried: the firing's matchers used up their %s; treated as no match", MatcherBudget)
}

func (errBudgetSpent) Is(target error) bool { return target == pyre.ErrTimeout }

// MatchBudget is what is left of one firing's MatcherBudget: every matcher
// of the firing is asked through it.
type MatchBudget struct{ left time.Duration }

// NewMatchBudget starts a firing's budget.
func NewMatchBudget() *MatchBudget { return &MatchBudget{left: FiringMatchBudget} }

// Match is m.MatchBy within what is left, which the match then uses up.
// An error wrapping pyre.ErrTimeout means the matcher could not decide.
func (b *MatchBudget) Match(m *Matcher, toolName string) (bool, error) {
	if b.left <= 0 && m != nil && !m.Literal() {
		return false, fmt.Errorf("matcher %q on tool %q: %w", m.Source, toolName, errBudgetSpent{})
	}
	start := time.Now()
	ok, err := m.MatchBy(toolName, start.Add(b.left))
	b.left -= time.Since(start)
	return ok, err
}

// Literal reports whether the matcher fell back to exact equality.
func (m *Matcher) Literal() bool { return m != nil && m.re == nil }

// CompileMatcher compiles a matcher source (already trimmed, not blank)
// with Python's re rules. A pattern Python's re.compile refuses (\p{L},
// \z, (?<name>...), an unbalanced parenthesis...) becomes an exact-name
// matcher, as in the agent, and warning says so with Python's own reason.
func CompileMatcher(src string) (m *Matcher, warning string) {
	m = &Matcher{Source: src}
	re, err := pyre.Compile(src)
	if err != nil {
		return m, fmt.Sprintf("matcher %q is not a valid Python regular expression (%v); as the agent does, it will only match a tool named exactly %q", src, err, src)
	}
	m.re = re
	return m, ""
}
