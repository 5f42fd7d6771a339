package hookspec

import (
	"strings"
	"testing"
)

func TestUnknownToolWarning(t *testing.T) {
	claude := func(n string) string { return map[string]string{"Bash": "terminal"}[n] }
	for _, c := range []struct{ matcher, want string }{
		{"terminal", ""},
		{"terminal|patch|write_file", ""},
		{"todo", ""},           // a legacy name the agent rewrites
		{"spotify_search", ""}, // named by the agent's toolsets, schema unread
		{"mcp_github_create_issue", ""},
		{"mcp_.*", ""},
		{"browser_.*", ""},
		{"(?i)TERMINAL", ""},
		{"Bash", `no tool called "Bash" (Claude Code's Bash is the agent's terminal)`},
		{"terminal|wrte_file", `no tool called "wrte_file" (did you mean "write_file"?)`},
		{"zzzz", `no tool called "zzzz", so`},
		{"Bash.*", `matches none of the agent's tools`},
		{"(unclosed", `matches none of the agent's tools`}, // literal: compared as a name
	} {
		m, _ := CompileMatcher(c.matcher)
		got := UnknownToolWarning(m, claude)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("UnknownToolWarning(%q) = %q, want %q", c.matcher, got, c.want)
		}
	}
	if UnknownToolWarning(nil, nil) != "" {
		t.Error("no matcher: a warning")
	}
}
