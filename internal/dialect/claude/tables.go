package claude

import "sort"

// An EventRow pairs a Claude Code hook event with the Hermes event that
// fires at the same point.
type EventRow struct {
	Claude string
	Hermes string
	// Tool events carry tool_name and tool_input and have matchers over
	// tool names.
	Tool bool
}

// Events is the event table (SPEC §15, §19), in Claude Code's order.
var Events = []EventRow{
	{Claude: "PreToolUse", Hermes: "pre_tool_call", Tool: true},
	{Claude: "PostToolUse", Hermes: "post_tool_call", Tool: true},
	{Claude: "UserPromptSubmit", Hermes: "pre_llm_call"},
	{Claude: "SessionStart", Hermes: "on_session_start"},
	{Claude: "SessionEnd", Hermes: "on_session_end"},
	{Claude: "Stop", Hermes: "pre_verify"},
	{Claude: "SubagentStart", Hermes: "subagent_start"},
	{Claude: "SubagentStop", Hermes: "subagent_stop"},
}

// HermesEvent is the Hermes event of a Claude Code event ("" when none).
func HermesEvent(claude string) string {
	for _, r := range Events {
		if r.Claude == claude {
			return r.Hermes
		}
	}
	return ""
}

// ClaudeEvent is the Claude Code event of a Hermes event ("" when none).
func ClaudeEvent(hermes string) string {
	for _, r := range Events {
		if r.Hermes == hermes {
			return r.Claude
		}
	}
	return ""
}

// A Field renames one tool_input key between the two tools. Scale, when
// not zero, multiplies the Hermes value into the Claude one (terminal's
// timeout in seconds is Bash's in milliseconds); going back, the Claude
// value is divided and rounded up.
type Field struct {
	Hermes string
	Claude string
	Scale  int
	// One: the Hermes value is a list of one item and the Claude value
	// that item (web_extract's urls, WebFetch's url).
	One bool
	// Path: the value is a file or folder, relative to the session's
	// working folder in Hermes and absolute in Claude Code, which always
	// sends absolute paths (a guard that keeps writes in the project
	// reads a relative one as outside it).
	Path bool
}

// A ToolRow is one tool of the table: a Claude Code tool, the Hermes tool
// it becomes, how the arguments are renamed, and when the row applies.
// Rows marked GUESS in ../shared/claude-map.md are not here.
type ToolRow struct {
	Claude string
	Hermes string
	// When, if set, must hold of the Hermes arguments for the row to
	// apply (patch in replace mode is Edit; search_files is Glob or Grep
	// by its target).
	When func(args map[string]any) bool
	// Fields are renamed both ways; a Hermes argument not named here
	// passes through under its own name.
	Fields []Field
	// Fixed are Claude fields with a constant value going out (Bash's
	// description) and dropped coming back.
	Fixed map[string]any
	// Defaults are Claude fields given when the Hermes call leaves them
	// out, so the hook sees what Hermes will do (Grep's output mode: the
	// defaults differ).
	Defaults map[string]any
	// Values renames the values of one field: Hermes value → Claude value.
	Values map[string]map[string]string
	// MatcherOnly rows are used for translating matchers only: the
	// payload of such a tool is not translated (its shapes differ too
	// much), and the hook sees Hermes' arguments under the Claude name.
	MatcherOnly bool
}

func targetIs(t string) func(map[string]any) bool {
	return func(a map[string]any) bool {
		v, ok := a["target"].(string)
		if !ok || v == "" {
			v = "content" // the Hermes default
		}
		return v == t
	}
}

func patchReplace(a map[string]any) bool {
	m, ok := a["mode"].(string)
	return !ok || m == "" || m == "replace"
}

func singleURL(a map[string]any) bool {
	l, ok := a["urls"].([]any)
	return ok && len(l) == 1
}

func skillByName(a map[string]any) bool {
	_, hasFile := a["file_path"]
	return !hasFile
}

// Tools is the tool table: the confirmed and Claude-side rows of
// ../shared/claude-map.md. A Hermes tool appears in several rows when the
// Claude tool depends on its arguments; the first row that applies wins.
var Tools = []ToolRow{
	{Claude: "Bash", Hermes: "terminal",
		Fields: []Field{{Hermes: "command", Claude: "command"}, {Hermes: "timeout", Claude: "timeout", Scale: 1000}, {Hermes: "background", Claude: "run_in_background"}},
		Fixed:  map[string]any{"description": ""}},
	{Claude: "Read", Hermes: "read_file",
		Fields: []Field{{Hermes: "path", Claude: "file_path", Path: true}, {Hermes: "offset", Claude: "offset"}, {Hermes: "limit", Claude: "limit"}}},
	{Claude: "Write", Hermes: "write_file",
		Fields: []Field{{Hermes: "path", Claude: "file_path", Path: true}, {Hermes: "content", Claude: "content"}}},
	{Claude: "Edit", Hermes: "patch", When: patchReplace,
		Fields:   []Field{{Hermes: "path", Claude: "file_path", Path: true}, {Hermes: "old_string", Claude: "old_string"}, {Hermes: "new_string", Claude: "new_string"}, {Hermes: "replace_all", Claude: "replace_all"}},
		Defaults: map[string]any{"replace_all": false}},
	{Claude: "MultiEdit", Hermes: "patch", MatcherOnly: true},
	{Claude: "Glob", Hermes: "search_files", When: targetIs("files"),
		Fields: []Field{{Hermes: "pattern", Claude: "pattern"}, {Hermes: "path", Claude: "path", Path: true}}},
	{Claude: "Grep", Hermes: "search_files", When: targetIs("content"),
		Fields:   []Field{{Hermes: "pattern", Claude: "pattern"}, {Hermes: "path", Claude: "path", Path: true}, {Hermes: "file_glob", Claude: "glob"}, {Hermes: "output_mode", Claude: "output_mode"}, {Hermes: "context", Claude: "-C"}, {Hermes: "limit", Claude: "head_limit"}},
		Defaults: map[string]any{"output_mode": "content"},
		Values:   map[string]map[string]string{"output_mode": {"files_only": "files_with_matches"}}},
	{Claude: "LS", Hermes: "search_files", MatcherOnly: true},
	{Claude: "WebSearch", Hermes: "web_search", Fields: []Field{{Hermes: "query", Claude: "query"}}},
	{Claude: "WebFetch", Hermes: "web_extract", When: singleURL, Fields: []Field{{Hermes: "urls", Claude: "url", One: true}}},
	{Claude: "Task", Hermes: "delegate_task", MatcherOnly: true},
	{Claude: "Agent", Hermes: "delegate_task", MatcherOnly: true},
	{Claude: "NotebookRead", Hermes: "read_file", MatcherOnly: true},
	{Claude: "TodoWrite", Hermes: "todo_list", MatcherOnly: true},
	{Claude: "TodoWrite", Hermes: "todo", MatcherOnly: true},
	{Claude: "AskUserQuestion", Hermes: "clarify", MatcherOnly: true},
	{Claude: "Skill", Hermes: "skill_view", When: skillByName, Fields: []Field{{Hermes: "name", Claude: "skill"}}},
}

// Unmapped are Claude Code tools with no Hermes counterpart that the
// reference backs (GUESS rows are kept out), with the reason the importer
// gives.
var Unmapped = map[string]string{
	"NotebookEdit": "Hermes has no cell-level notebook editing (mapping it to patch|write_file is a guess)",
	"BashOutput":   "the Hermes process_manage ids are not Claude's shell ids (mapping is a guess)",
	"KillShell":    "the Hermes process_manage ids are not Claude's shell ids (mapping is a guess)",
	"ExitPlanMode": "Hermes has no plan mode",
}

// HermesTools lists the Hermes tools a Claude Code tool name stands for, in
// the table's order ("" names none).
func HermesTools(claude string) []string {
	var out []string
	for _, r := range Tools {
		if r.Claude == claude && !contains(out, r.Hermes) {
			out = append(out, r.Hermes)
		}
	}
	return out
}

// ClaudeToolNames lists every Claude Code tool name of the table, once.
func ClaudeToolNames() []string {
	var out []string
	for _, r := range Tools {
		if !contains(out, r.Claude) {
			out = append(out, r.Claude)
		}
	}
	var extra []string
	for n := range Unmapped {
		if !contains(out, n) {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
