package hooks

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Matcher selects tool calls by tool name, the way the agent does: the
// pattern must match the whole name (Python's re.fullmatch).
type Matcher struct {
	Source string
	// re is ^(?:Source)$; nil means the pattern could not be run as a
	// regular expression and the tool name must equal Source exactly.
	re *regexp.Regexp
}

// Match reports whether the hook applies to toolName. A nil matcher (no
// matcher given) applies to every tool.
func (m *Matcher) Match(toolName string) bool {
	if m == nil {
		return true
	}
	if m.re == nil {
		return toolName == m.Source
	}
	return m.re.MatchString(toolName)
}

// Literal reports whether the matcher fell back to exact equality.
func (m *Matcher) Literal() bool { return m != nil && m.re == nil }

// pythonOnly are forms Python's re accepts and RE2 cannot run, with the
// name the warning gives them.
var pythonOnly = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`\(\?<?[=!]`), "look-around"},
	{regexp.MustCompile(`\\[1-9]|\(\?P=`), "a back-reference"},
	{regexp.MustCompile(`\(\?>`), "an atomic group"},
	{regexp.MustCompile(`\(\?\(`), "a conditional group"},
	{regexp.MustCompile(`[*+?}]\+`), "a possessive quantifier"},
}

// CompileMatcher compiles a matcher source (already trimmed, not blank).
// A pattern Go cannot run — a Python-only form or an invalid expression —
// becomes an exact-name matcher, and warning says so; the agent itself
// falls back to equality for patterns it cannot compile.
func CompileMatcher(src string) (m *Matcher, warning string) {
	m = &Matcher{Source: src}
	re, err := regexp.Compile(`^(?:` + src + `)$`)
	if err == nil {
		m.re = re
		return m, ""
	}
	fallback := fmt.Sprintf("it will only match a tool named exactly %q", src)
	for _, p := range pythonOnly {
		if p.re.MatchString(stripEscapedBackslashes(src)) {
			return m, fmt.Sprintf("matcher %q uses %s, which Go regular expressions do not support; %s", src, p.what, fallback)
		}
	}
	reason := err.Error()
	var e *syntax.Error
	if errors.As(err, &e) {
		reason = e.Code.String()
		if e.Expr != "" && !strings.HasPrefix(e.Expr, "^(?:") {
			reason += ": " + e.Expr
		}
	}
	return m, fmt.Sprintf("matcher %q is not a valid regular expression (%s); %s", src, reason, fallback)
}

// stripEscapedBackslashes removes `\\` pairs so that `\\1` (a backslash
// then 1) is not mistaken for a back-reference.
func stripEscapedBackslashes(s string) string { return strings.ReplaceAll(s, `\\`, "") }
