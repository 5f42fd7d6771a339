// Package claude translates the hooks of Claude Code settings files
// (settings.json) into Hermes shell hooks: the events and tool names that
// have a Hermes counterpart, and a list of what was left out and why. It
// reads and returns; it prints and writes nothing.
package claude

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Events maps Claude Code hook events to Hermes events.
var Events = map[string]string{
	"PreToolUse":       "pre_tool_call",
	"PostToolUse":      "post_tool_call",
	"UserPromptSubmit": "pre_llm_call", // the agent fires pre_llm_call at that point
	"SessionStart":     "on_session_start",
	"SessionEnd":       "on_session_end",
	"SubagentStop":     "subagent_stop",
}

// eventNotes say how an event's answers differ between Claude Code and
// Hermes, for hooks whose output matters.
var eventNotes = map[string]string{
	"UserPromptSubmit": "Claude Code adds a hook's plain stdout (or hookSpecificOutput.additionalContext) as context; Hermes needs {\"context\": \"...\"} on stdout",
	"SessionStart":     "Claude Code adds a SessionStart hook's stdout as context; Hermes' on_session_start only observes",
	"PreToolUse":       "Hermes blocks on exit code 2, {\"decision\": \"block\"} or {\"action\": \"block\"}; Claude Code's hookSpecificOutput.permissionDecision is not read",
}

// Tools maps Claude Code tool names to Hermes tool names.
var Tools = map[string]string{
	"Bash":      "terminal",
	"Write":     "write_file",
	"Edit":      "patch",
	"MultiEdit": "patch",
	"Read":      "read_file",
	"WebFetch":  "web_extract",
	"Task":      "delegate_task",
}

// Timeouts as the config reads them (SPEC §2.1).
const maxTimeout = 300

// Entry is one Claude Code command hook translated to a Hermes hook.
type Entry struct {
	Event   string
	Command string
	Matcher string // "" for every tool
	Timeout int    // 0: none given (the default applies)
	Source  string // the settings file and the Claude event
	// Notes say what may not work as it did under Claude Code.
	Notes []string
}

// Skipped is something in a settings file that was not imported.
type Skipped struct {
	Source string
	Reason string
}

// Parse reads one settings file's content. file names it in Source.
// Invalid JSON is an error; everything else odd is skipped with a reason.
func Parse(file string, data []byte) ([]Entry, []Skipped, error) {
	root, err := pyjson.DecodeObject(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: not a JSON object: %w", file, err)
	}
	raw, ok := root.Get("hooks")
	if !ok || raw == nil {
		return nil, nil, nil
	}
	hooks, ok := raw.(*pyjson.Object)
	if !ok {
		return nil, []Skipped{{file, "\"hooks\" is not an object"}}, nil
	}
	var entries []Entry
	var skipped []Skipped
	for _, m := range hooks.Members() {
		source := fmt.Sprintf("%s (%s)", file, m.Key)
		event, known := Events[m.Key]
		groups, isList := m.Value.([]any)
		switch {
		case !known:
			skipped = append(skipped, Skipped{source, fmt.Sprintf("Claude Code event %s has no Hermes counterpart (%d hook(s) not imported)", m.Key, countHooks(m.Value))})
			continue
		case !isList:
			skipped = append(skipped, Skipped{source, "the event's value is not a list of matcher groups"})
			continue
		}
		for gi, g := range groups {
			group, ok := g.(*pyjson.Object)
			if !ok {
				skipped = append(skipped, Skipped{source, fmt.Sprintf("group %d is not an object", gi)})
				continue
			}
			matcher, notes, reason := translateMatcher(m.Key, str(group, "matcher"))
			list, _ := get(group, "hooks").([]any)
			if reason != "" {
				skipped = append(skipped, Skipped{source, fmt.Sprintf("%s (%d hook(s) not imported)", reason, len(list))})
				continue
			}
			for _, h := range list {
				e, why := translateHook(h, event, matcher, source)
				if why != "" {
					skipped = append(skipped, Skipped{source, why})
					continue
				}
				e.Notes = append(append([]string(nil), notes...), e.Notes...)
				if n, ok := eventNotes[m.Key]; ok {
					e.Notes = append(e.Notes, n)
				}
				entries = append(entries, e)
			}
		}
	}
	return entries, skipped, nil
}

func get(o *pyjson.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

func str(o *pyjson.Object, key string) string {
	s, _ := get(o, key).(string)
	return s
}

func countHooks(v any) int {
	n := 0
	groups, _ := v.([]any)
	for _, g := range groups {
		if o, ok := g.(*pyjson.Object); ok {
			l, _ := get(o, "hooks").([]any)
			n += len(l)
		}
	}
	return n
}

var toolName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// translateMatcher turns a Claude matcher into a Hermes one. reason is set
// when nothing of it can be kept.
func translateMatcher(claudeEvent, m string) (matcher string, notes []string, reason string) {
	m = strings.TrimSpace(m)
	if m == "" || m == "*" || m == ".*" {
		return "", nil, ""
	}
	if claudeEvent != "PreToolUse" && claudeEvent != "PostToolUse" {
		return "", []string{fmt.Sprintf("matcher %q dropped: the Hermes event has no matcher, so the hook runs every time", m)}, ""
	}
	var kept, unknown []string
	seen := map[string]bool{}
	for _, alt := range strings.Split(m, "|") {
		alt = strings.TrimSpace(alt)
		if !toolName.MatchString(alt) {
			return "", nil, fmt.Sprintf("matcher %q is a pattern over Claude Code tool names, not a list of names; it cannot be translated", m)
		}
		h, ok := Tools[alt]
		if !ok {
			unknown = append(unknown, alt)
			continue
		}
		if !seen[h] {
			seen[h] = true
			kept = append(kept, h)
		}
	}
	if len(kept) == 0 {
		return "", nil, fmt.Sprintf("no Hermes counterpart for Claude Code tool(s) %s", strings.Join(unknown, ", "))
	}
	if len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("no Hermes counterpart for Claude Code tool(s) %s: left out of the matcher", strings.Join(unknown, ", ")))
	}
	return strings.Join(kept, "|"), notes, ""
}

var projectDir = regexp.MustCompile(`\$\{?CLAUDE_PROJECT_DIR\}?`)

// shellSyntax finds what only a shell gives meaning to: Claude Code runs
// commands through one, Hermes does not.
var shellSyntax = regexp.MustCompile("[|&;<>`]|\\$\\(")

func translateHook(h any, event, matcher, source string) (Entry, string) {
	o, ok := h.(*pyjson.Object)
	if !ok {
		return Entry{}, "a hook is not an object"
	}
	if t := str(o, "type"); t != "command" {
		return Entry{}, fmt.Sprintf("hook of type %q: only command hooks can become Hermes shell hooks", t)
	}
	cmd := strings.TrimSpace(str(o, "command"))
	if cmd == "" {
		return Entry{}, "command hook without a command"
	}
	if _, err := shell.Split(cmd); err != nil {
		return Entry{}, fmt.Sprintf("command %q cannot be parsed: %v", cmd, err)
	}
	e := Entry{Event: event, Command: cmd, Matcher: matcher, Source: source}
	if projectDir.MatchString(cmd) {
		e.Notes = append(e.Notes, "the command uses $CLAUDE_PROJECT_DIR, which Hermes does not set: replace it with the project's path")
	}
	if rest := projectDir.ReplaceAllString(cmd, ""); shellSyntax.MatchString(rest) || strings.Contains(rest, "$") {
		e.Notes = append(e.Notes, "Claude Code runs commands through a shell and Hermes does not (no pipes, redirections or $variables): wrap it as sh -c '...' or move it into a script")
	}
	if t, ok := get(o, "timeout").(json.Number); ok {
		f, err := t.Float64()
		switch {
		case err != nil || math.IsNaN(f):
		case f < 1:
			e.Notes = append(e.Notes, fmt.Sprintf("timeout %s is below 1 second: the default (60) applies", t))
		case f > maxTimeout:
			e.Timeout = maxTimeout
			e.Notes = append(e.Notes, fmt.Sprintf("timeout %s clamped to the maximum of %d seconds", t, maxTimeout))
		default:
			e.Timeout = int(f)
		}
	}
	return e, ""
}
