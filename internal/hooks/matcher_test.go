package hooks

import (
	"strings"
	"testing"
)

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
		// Python-only forms fall back to exact equality.
		{src: "(?!terminal).*", match: []string{"(?!terminal).*"}, noMatch: []string{"patch", "terminal"}, warning: "uses look-around"},
		{src: "(?=t)terminal", match: []string{"(?=t)terminal"}, noMatch: []string{"terminal"}, warning: "uses look-around"},
		{src: "(?<=a)b", match: []string{"(?<=a)b"}, noMatch: []string{"b"}, warning: "uses look-around"},
		{src: "(?<!a)b", noMatch: []string{"b"}, warning: "uses look-around"},
		{src: `(a)\1`, match: []string{`(a)\1`}, noMatch: []string{"aa"}, warning: "uses a back-reference"},
		{src: `(?P<x>a)(?P=x)`, noMatch: []string{"aa"}, warning: "uses a back-reference"},
		{src: `a++`, noMatch: []string{"aa"}, warning: "possessive quantifier"},
		{src: `(?>a)`, noMatch: []string{"a"}, warning: "atomic group"},
		// Invalid everywhere.
		{src: "[terminal", match: []string{"[terminal"}, noMatch: []string{"terminal"}, warning: "is not a valid regular expression (missing closing ]"},
		{src: "*", match: []string{"*"}, noMatch: []string{"terminal"}, warning: "is not a valid regular expression"},
		{src: `a\\1`, warning: "", match: []string{`a\1`}}, // an escaped backslash, then 1: valid
	}
	for _, tt := range tests {
		m, warning := CompileMatcher(tt.src)
		if tt.warning == "" && warning != "" || !strings.Contains(warning, tt.warning) {
			t.Errorf("%q: warning %q, want %q", tt.src, warning, tt.warning)
		}
		if tt.warning != "" && (!m.Literal() || !strings.Contains(warning, "only match a tool named exactly")) {
			t.Errorf("%q: not a literal fallback (warning %q)", tt.src, warning)
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
