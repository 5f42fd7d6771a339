package hookspec

import (
	"strings"
	"testing"
)

// Matchers mean what Python's re.fullmatch means (SPEC §2.1, §14); what
// Python's re refuses is compared literally, with a warning.
func TestMatcher(t *testing.T) {
	tests := []struct {
		src     string
		match   []string
		noMatch []string
		warning string // substring; "" = none
	}{
		{src: "terminal|patch", match: []string{"terminal", "patch"}, noMatch: []string{"terminal2", "xpatch", "terminal|patch", ""}},
		{src: "terminal", match: []string{"terminal"}, noMatch: []string{"terminals", "my_terminal"}},
		{src: "read_.*", match: []string{"read_file", "read_"}, noMatch: []string{"xread_file"}},
		{src: "web_(search|fetch)", match: []string{"web_search", "web_fetch"}, noMatch: []string{"web_searcher"}},
		{src: "(?i)Terminal", match: []string{"terminal", "TERMINAL"}},
		{src: "a$|b", match: []string{"a", "b"}, noMatch: []string{"ab"}},
		{src: "(?P<name>x+)", match: []string{"xxx"}},
		// Python's own forms: look-around, back-references, atomic groups,
		// possessive quantifiers (3.11), {,n}, Unicode classes.
		{src: "(?!read_file$).*", match: []string{"terminal", "write_file"}, noMatch: []string{"read_file"}},
		{src: "(?!terminal).*", match: []string{"patch", "termina"}, noMatch: []string{"terminal", "terminal2"}},
		{src: "(?=t)terminal", match: []string{"terminal"}, noMatch: []string{"(?=t)terminal"}},
		{src: "(?<=a)b", noMatch: []string{"b", "ab"}},
		{src: `(a)\1`, match: []string{"aa"}, noMatch: []string{`(a)\1`}},
		{src: `(?P<x>a)(?P=x)`, match: []string{"aa"}},
		{src: `a++`, match: []string{"aa"}},
		{src: `(?>a)`, match: []string{"a"}},
		{src: `mcp_\w{,3}`, match: []string{"mcp_", "mcp_é1"}, noMatch: []string{"mcp_abcd"}},
		{src: `\d+`, match: []string{"٣٤"}},
		{src: `a\\1`, match: []string{`a\1`}}, // an escaped backslash, then 1
		// What Python's re refuses falls back to exact equality.
		{src: "[terminal", match: []string{"[terminal"}, noMatch: []string{"terminal"}, warning: "is not a valid Python regular expression (unterminated character set at position 0)"},
		{src: "*", match: []string{"*"}, noMatch: []string{"terminal"}, warning: "(nothing to repeat at position 0)"},
		{src: `\p{L}+`, match: []string{`\p{L}+`}, noMatch: []string{"terminal"}, warning: `(bad escape \p at position 0)`},
		{src: `terminal\z`, match: []string{`terminal\z`}, noMatch: []string{"terminal"}, warning: `(bad escape \z at position 8)`},
		{src: `(?<n>terminal)`, match: []string{`(?<n>terminal)`}, noMatch: []string{"terminal"}, warning: `(unknown extension ?<n at position 1)`},
		{src: `(?<=a*)b`, noMatch: []string{"b"}, warning: "look-behind requires fixed-width pattern"},
	}
	for _, tt := range tests {
		m, warning := CompileMatcher(tt.src)
		if tt.warning == "" && warning != "" || !strings.Contains(warning, tt.warning) {
			t.Errorf("%q: warning %q, want %q", tt.src, warning, tt.warning)
		}
		if tt.warning != "" && (!m.Literal() || !strings.Contains(warning, "it will only match a tool named exactly")) {
			t.Errorf("%q: not a literal fallback (warning %q)", tt.src, warning)
		}
		if tt.warning == "" && m.Literal() {
			t.Errorf("%q: literal fallback without a warning", tt.src)
		}
		for _, name := range tt.match {
			if !m.Match(name) {
				t.Errorf("%q does not match %q", tt.src, name)
			}
		}
		for _, name := range tt.noMatch {
			if m.Match(name) {
				t.Errorf("%q matches %q", tt.src, name)
			}
		}
	}
}

func TestNilMatcherMatchesEverything(t *testing.T) {
	var m *Matcher
	if !m.Match("anything") || m.Literal() {
		t.Error("a nil matcher must match every tool and not be literal")
	}
}

// A catastrophically backtracking matcher does not hang: it is abandoned,
// counts as no match, and MatchErr says why.
func TestMatcherHostilePatternTimesOut(t *testing.T) {
	m, warning := CompileMatcher(`(a|aa)+b`)
	if warning != "" {
		t.Fatal(warning)
	}
	ok, err := m.MatchErr(strings.Repeat("a", 80))
	if ok || err == nil || !strings.Contains(err.Error(), "backtracks too much") {
		t.Errorf("got %v, %v", ok, err)
	}
}
