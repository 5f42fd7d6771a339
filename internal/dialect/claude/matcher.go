package claude

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// A Matcher is a Claude Code matcher translated for Hermes.
type Matcher struct {
	// Pattern is the Hermes matcher (a Python fullmatch pattern over
	// Hermes tool names); "" matches every tool.
	Pattern string
	// Notes say how it is wider or narrower than the Claude matcher.
	Notes []string
	// Claude are the Claude Code tools the matcher names (its MCP tools
	// aside; none when it matches every tool).
	Claude []string
}

// The package's regular expressions are compiled on first use: hermes-guard
// imports this package and starts on every tool call, mostly without
// --dialect (SPEC §24 item 10, docs/performance.md).
var exactList = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_]+(\s*[|,]\s*[A-Za-z0-9_]+)*$`) })

// mcpPattern is an alternative of a matcher that names MCP tools: Claude's
// mcp__<server>__<tool>, written literally or with .* for the tool.
var mcpPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\^?mcp__([A-Za-z0-9-]+)(?:__([A-Za-z0-9_-]+|\.\*))?(\.\*)?\$?$`)
})

// TranslateMatcher turns the matcher of a tool event's group into a Hermes
// matcher, with Claude Code's rules: empty or "*" is every tool; only
// letters, digits, _ and | or , is a list of exact names; anything else is
// a JavaScript regular expression tested unanchored against the tool name.
// A regular expression is evaluated against every Claude tool name of the
// table, so the Hermes pattern is the list of the Hermes tools those
// stand for. An error says why nothing of it can be kept.
func TranslateMatcher(m string) (Matcher, error) {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" {
		return Matcher{}, nil
	}
	var names []string
	var mcp []string
	var notes []string
	if exactList().MatchString(m) {
		for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			n = strings.TrimSpace(n)
			if strings.HasPrefix(n, "mcp__") {
				h, ok := mcpName(n)
				if !ok {
					return Matcher{}, fmt.Errorf("matcher %q: %s is not an MCP tool name (mcp__<server>__<tool>)", m, n)
				}
				mcp = append(mcp, h)
				continue
			}
			names = append(names, n)
		}
	} else {
		var rest []string
		for _, alt := range splitTopLevel(m) {
			if sm := mcpPattern().FindStringSubmatch(alt); sm != nil {
				mcp = append(mcp, mcpRegex(sm, alt))
				continue
			}
			if strings.Contains(alt, "mcp") {
				return Matcher{}, fmt.Errorf("matcher %q: the MCP part %q is a pattern this tool cannot translate to Hermes' mcp_<server>_<tool> names", m, alt)
			}
			rest = append(rest, alt)
		}
		if len(rest) > 0 {
			re, err := regexp.Compile(strings.Join(rest, "|"))
			if err != nil {
				return Matcher{}, fmt.Errorf("matcher %q is a JavaScript regular expression this tool cannot evaluate: %v", m, err)
			}
			if len(mcp) == 0 && re.MatchString("") {
				// .*, .+? and the like: every tool, Hermes' own too.
				return Matcher{}, nil
			}
			for _, n := range ClaudeToolNames() {
				if re.MatchString(n) {
					names = append(names, n)
				}
			}
			if len(names) == 0 && len(mcp) == 0 {
				return Matcher{}, fmt.Errorf("matcher %q matches no Claude Code tool this tool knows", m)
			}
			notes = append(notes, fmt.Sprintf("matcher %q is a regular expression; it matches the Claude Code tools %s", m, strings.Join(names, ", ")))
		}
	}
	var hermes, unknown []string
	for _, n := range names {
		hs := HermesTools(n)
		if len(hs) == 0 {
			if why, ok := Unmapped[n]; ok {
				unknown = append(unknown, n+" ("+why+")")
			} else {
				unknown = append(unknown, n)
			}
			continue
		}
		for _, h := range hs {
			if !contains(hermes, h) {
				hermes = append(hermes, h)
			}
		}
	}
	hermes = append(hermes, mcp...)
	if len(hermes) == 0 {
		return Matcher{}, fmt.Errorf("no Hermes counterpart for Claude Code tool(s) %s", strings.Join(unknown, ", "))
	}
	if len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("no Hermes counterpart for Claude Code tool(s) %s: left out of the matcher", strings.Join(unknown, ", ")))
	}
	notes = append(notes, widened(names)...)
	return Matcher{Pattern: strings.Join(hermes, "|"), Notes: notes, Claude: names}, nil
}

// widened: Hermes tools that stand for more Claude tools than the matcher
// named fire the hook for those too.
func widened(names []string) []string {
	var notes []string
	seen := map[string]bool{}
	for _, n := range names {
		for _, h := range HermesTools(n) {
			if seen[h] {
				continue
			}
			seen[h] = true
			var others []string
			for _, r := range Tools {
				if r.Hermes == h && !contains(names, r.Claude) && !contains(others, r.Claude) {
					others = append(others, r.Claude)
				}
			}
			if len(others) > 0 {
				notes = append(notes, fmt.Sprintf("Hermes' %s also serves Claude Code's %s: the hook fires for those calls too", h, strings.Join(others, ", ")))
			}
		}
	}
	return notes
}

// mcpName is the Hermes name of a Claude MCP tool name: mcp_<server>_<tool>
// with every character other than letters, digits and _ turned into _.
func mcpName(n string) (string, bool) {
	rest := strings.TrimPrefix(n, "mcp__")
	server, tool, ok := strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", false
	}
	return "mcp_" + sanitize(server) + "_" + sanitize(tool), true
}

var nonWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_]`) })

func sanitize(s string) string { return nonWord().ReplaceAllString(s, "_") }

// mcpRegex: mcp__srv__tool, mcp__srv__.*, mcp__srv, unanchored unless it
// ends with $.
func mcpRegex(sm []string, alt string) string {
	out := "mcp_" + sanitize(sm[1])
	switch sm[2] {
	case "":
		out += "_.*"
	case ".*":
		out += "_.*"
	default:
		out += "_" + sanitize(sm[2])
		if !strings.HasSuffix(alt, "$") {
			out += ".*"
		}
	}
	return out
}

// splitTopLevel splits a regular expression at the | outside groups and
// classes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	inClass := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// SessionMatcherFires reports whether a SessionStart or SessionEnd
// matcher (over the source or reason) matches the value Hermes' event
// stands for, with the same rules as tool matchers. ok is false when the
// matcher cannot be evaluated.
func SessionMatcherFires(m, value string) (fires, ok bool) {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" {
		return true, true
	}
	if exactList().MatchString(m) {
		for _, n := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if strings.TrimSpace(n) == value {
				return true, true
			}
		}
		return false, true
	}
	re, err := regexp.Compile(m)
	if err != nil {
		return false, false
	}
	return re.MatchString(value), true
}
