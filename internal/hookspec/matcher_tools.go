package hookspec

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hermes-hooks/hermes/internal/catalog/tools"
	"github.com/hermes-hooks/hermes/internal/suggest"
)

// toolWord is an alternative of a matcher that is a plain tool name.
var toolWord = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// UnknownToolWarning says when a matcher names no tool of the agent's
// catalogue (SPEC §18): a word of it (an alternative of `a|b`) that is no
// tool's name, or a pattern that matches no tool, with the closest tool name
// (a Claude Code name such as Bash gives its Hermes counterpart). "" when
// every word names a tool. MCP tools (mcp_<server>_<tool>) are not in the
// catalogue: a matcher that starts with mcp_ is taken as naming them.
// counterpart, when set, names the agent's tool for another dialect's tool
// name (Claude Code's Bash: terminal), "" for none.
func UnknownToolWarning(m *Matcher, counterpart func(string) string) string {
	if m == nil || strings.HasPrefix(m.Source, "mcp_") {
		return ""
	}
	var unknown []string
	words := strings.Split(m.Source, "|")
	if m.Literal() {
		words = []string{m.Source}
	}
	plain := true
	for _, w := range words {
		w = strings.TrimSpace(w)
		if !toolWord.MatchString(w) {
			plain = false
			continue
		}
		if !tools.Known(w) {
			unknown = append(unknown, w)
		}
	}
	if len(unknown) > 0 {
		var parts []string
		for _, w := range unknown {
			parts = append(parts, fmt.Sprintf("%q%s", w, didYouMeanTool(w, counterpart)))
		}
		return fmt.Sprintf("matcher %q: the agent has no tool called %s, so this part never matches",
			m.Source, strings.Join(parts, ", "))
	}
	if plain {
		return ""
	}
	for _, name := range tools.Names() {
		if m.Match(name) {
			return ""
		}
	}
	return fmt.Sprintf("matcher %q matches none of the agent's tools; the hook fires only for a tool added later (an MCP tool is named mcp_<server>_<tool>)", m.Source)
}

func didYouMeanTool(w string, counterpart func(string) string) string {
	if counterpart != nil {
		if h := counterpart(w); h != "" {
			return fmt.Sprintf(" (Claude Code's %s is the agent's %s)", w, h)
		}
	}
	if s := suggest.Name(w, tools.Names()); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}
