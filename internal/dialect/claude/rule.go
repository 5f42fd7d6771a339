package claude

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/code"
)

// A Rule is a hook's `if` condition, in Claude Code's permission-rule
// syntax: a tool name, or a tool name with a pattern over the call
// (`Bash(git *)`, `Edit(*.env)`, `WebFetch(domain:example.com)`).
type Rule struct {
	Text string
	Tool string
	kind ruleKind
	// Bash: the command glob; files: the path glob, compiled when the
	// call is matched (it may be relative to the project).
	pattern string
	prefix  bool // Bash(npm run test:*)
}

type ruleKind int

const (
	ruleTool ruleKind = iota
	ruleBash
	ruleFile
	ruleDomain
)

// fileRuleTools: an Edit rule covers every tool that edits a file, a Read
// rule every tool that reads one (as Claude Code's permission rules do).
var fileRuleTools = map[string][]string{
	"Edit":  {"Edit", "MultiEdit", "Write", "NotebookEdit"},
	"Write": {"Write"},
	"Read":  {"Read", "Glob", "Grep", "NotebookRead"},
}

// patchTool is the agent's tool that edits, adds, deletes and moves files
// with a V4A patch; a call of it in patch mode has no Claude Code
// counterpart, and every file it names is seen by Edit and Write rules.
const patchTool = "patch"

var bareTool = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`) })

// ParseRule reads an `if` rule. An error says why this tool cannot
// evaluate it: the importer then leaves the hook out.
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	r := Rule{Text: s}
	open := strings.IndexByte(s, '(')
	if open < 0 {
		if !bareTool().MatchString(s) {
			return r, fmt.Errorf("if rule %q is not a tool name or Tool(pattern)", s)
		}
		r.Tool, r.kind = s, ruleTool
		return r, nil
	}
	if !strings.HasSuffix(s, ")") {
		return r, fmt.Errorf("if rule %q has no closing parenthesis", s)
	}
	r.Tool = s[:open]
	arg := s[open+1 : len(s)-1]
	switch {
	case arg == "" || arg == "*":
		r.kind = ruleTool
	case r.Tool == "Bash":
		r.kind = ruleBash
		if strings.HasSuffix(arg, ":*") {
			r.prefix, arg = true, strings.TrimSuffix(arg, ":*")
		}
		r.pattern = arg
	case fileRuleTools[r.Tool] != nil:
		r.kind = ruleFile
		r.pattern = arg
		if _, err := globRegexp(arg, "/"); err != nil {
			return r, fmt.Errorf("if rule %q: %v", s, err)
		}
	case r.Tool == "WebFetch" && strings.HasPrefix(arg, "domain:"):
		r.kind, r.pattern = ruleDomain, strings.ToLower(strings.TrimPrefix(arg, "domain:"))
	default:
		return r, fmt.Errorf("if rule %q: this tool evaluates patterns for Bash, Edit, Read and WebFetch(domain:…) only", s)
	}
	if !bareTool().MatchString(r.Tool) {
		return r, fmt.Errorf("if rule %q does not start with a tool name", s)
	}
	return r, nil
}

// NeedsProject reports whether the rule's path is relative to the
// project's root (`Edit(/src/**)`).
func (r Rule) NeedsProject() bool {
	return r.kind == ruleFile && strings.HasPrefix(r.pattern, "/") && !strings.HasPrefix(r.pattern, "//")
}

// Match reports whether the call (Claude's view of it) satisfies the rule.
// projectDir anchors `/…` paths, home `~/…` ones, and the call's cwd
// relative ones.
func (r Rule) Match(c *Call, projectDir, home string) bool {
	switch r.kind {
	case ruleTool:
		if fileRuleTools[r.Tool] != nil {
			// Edit, Write, Read alone (or with `*`) is the file rule
			// that matches every file: as Edit(**) it covers every tool
			// that edits a file, a V4A patch included.
			return r.seesFileTool(c)
		}
		return c.Tool == r.Tool
	case ruleBash:
		if c.Tool != "Bash" {
			return false
		}
		return bashMatch(r, c.ToolInput.Str("command"))
	case ruleFile:
		if !r.seesFileTool(c) {
			return false
		}
		// The cwd as the agent sees it (SPEC §24 item 2): a V4A patch's
		// relative files are joined to it as the call's path was.
		cwd := physical(c.Cwd)
		for _, p := range callFiles(c) {
			if fileMatch(r.pattern, p, cwd, projectDir, home) {
				return true
			}
		}
		return false
	case ruleDomain:
		if c.Tool != "WebFetch" {
			return false
		}
		u, err := url.Parse(c.ToolInput.Str("url"))
		if err != nil {
			return false
		}
		h := strings.ToLower(u.Hostname())
		return h == r.pattern || strings.HasSuffix(h, "."+r.pattern)
	}
	return false
}

// seesFileTool: the call is one of the tools a file rule covers.
func (r Rule) seesFileTool(c *Call) bool {
	return contains(fileRuleTools[r.Tool], c.Tool) || (c.HermesTool == patchTool && r.Tool != "Read")
}

// HermesTools are the Hermes tools whose calls the rule can match, in the
// tool table's order: what a hook with this rule can ever see.
func (r Rule) HermesTools() []string {
	claude := []string{r.Tool}
	switch r.kind {
	case ruleTool, ruleFile:
		if l := fileRuleTools[r.Tool]; l != nil {
			claude = l
		}
	}
	var out []string
	for _, n := range claude {
		for _, h := range HermesTools(n) {
			if !contains(out, h) {
				out = append(out, h)
			}
		}
	}
	if fileRuleTools[r.Tool] != nil && r.Tool != "Read" && !contains(out, patchTool) {
		out = append(out, patchTool)
	}
	return out
}

// bashMatch: the whole command, or any command of a list or pipeline
// (`cd x && git push`), matches the glob. Splitting on the operators
// without a full shell parser can only find more matches, never fewer:
// the hook then runs more often than in Claude Code, not less.
func bashMatch(r Rule, command string) bool {
	parts := append([]string{command}, splitCommands(command)...)
	// Each simple command as §23's shell parse finds it: after leading
	// assignments, inside subshells and groups, whatever the white space
	// (SPEC §24 item 3).
	if cmds, ok := code.SimpleCommands(command); ok {
		parts = append(parts, cmds...)
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if r.prefix {
			if p == r.pattern || strings.HasPrefix(p, r.pattern) {
				return true
			}
			continue
		}
		if wildMatch(r.pattern, p) {
			return true
		}
		// `git *` also covers a bare `git`.
		if strings.HasSuffix(r.pattern, " *") && p == strings.TrimSuffix(r.pattern, " *") {
			return true
		}
	}
	return false
}

var commandSep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`&&|\|\||[;|&\n]`) })

func splitCommands(s string) []string { return commandSep().Split(s, -1) }

// wildMatch: * matches any run of characters (spaces and slashes too).
func wildMatch(pattern, s string) bool {
	var b strings.Builder
	b.WriteString("^")
	for i, part := range strings.Split(pattern, "*") {
		if i > 0 {
			b.WriteString(".*")
		}
		b.WriteString(regexp.QuoteMeta(part))
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err == nil && re.MatchString(s)
}

// fileMatch applies a gitignore-style path pattern: without a slash it
// matches the file's name in any folder; `//x` is absolute, `~/x` under
// home, `/x` under the project, anything else under the cwd.
func fileMatch(pattern, file, cwd, projectDir, home string) bool {
	if !path.IsAbs(file) {
		file = path.Join(cwd, file)
	}
	file = path.Clean(file)
	var anchored string
	switch {
	case !strings.Contains(strings.TrimSuffix(pattern, "/"), "/"):
		re, err := globRegexp(pattern, "")
		return err == nil && re.MatchString(path.Base(file))
	case strings.HasPrefix(pattern, "//"):
		anchored = pattern[1:]
	case strings.HasPrefix(pattern, "~/"):
		if home == "" {
			return false
		}
		anchored = path.Join(home, pattern[2:])
	case strings.HasPrefix(pattern, "/"):
		if projectDir == "" {
			projectDir = cwd
		}
		anchored = path.Join(projectDir, pattern)
	default:
		anchored = path.Join(cwd, pattern)
	}
	if strings.HasSuffix(pattern, "/") || strings.HasSuffix(pattern, "/**") {
		anchored = strings.TrimSuffix(strings.TrimSuffix(anchored, "/**"), "/") + "/**"
	}
	re, err := globRegexp(anchored, "")
	return err == nil && re.MatchString(file)
}

// globRegexp compiles a path glob: ** any depth, * and ? within a name,
// [...] a class.
func globRegexp(glob, _ string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		c := glob[i]
		switch {
		case c == '*' && i+1 < len(glob) && glob[i+1] == '*':
			i++
			if i+1 < len(glob) && glob[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(glob[i:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [ in %q", glob)
			}
			class := glob[i+1 : i+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += end
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}

// callFiles are the files a call names (SPEC §24 item 3): its path field,
// and every file of a V4A patch, both ends of a move included.
func callFiles(c *Call) []string {
	var files []string
	for _, key := range []string{"file_path", "notebook_path", "path"} {
		if p := c.ToolInput.Str(key); p != "" {
			files = append(files, p)
			break
		}
	}
	for _, args := range []interface{ Str(string) string }{c.ToolInput, c.HermesArgs} {
		if args == nil {
			continue
		}
		files = append(files, PatchFiles(args.Str("patch"))...)
	}
	return files
}

// PatchFiles are the files a V4A patch names, as the agent's patch tool
// reads it: `*** Update File: X`, `*** Add File: X`, `*** Delete File: X`,
// `*** Move File: A -> B` and an update's `*** Move to: B`.
func PatchFiles(patch string) []string {
	var files []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, head := range []string{"*** Update File:", "*** Add File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, head); ok {
				files = append(files, strings.TrimSpace(rest))
			}
		}
		if rest, ok := strings.CutPrefix(line, "*** Move File:"); ok {
			from, to, _ := strings.Cut(rest, "->")
			files = append(files, strings.TrimSpace(from), strings.TrimSpace(to))
		}
	}
	return files
}
