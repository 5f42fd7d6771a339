package claude

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// A Call is one firing as both sides see it: the Hermes event and tool
// call, and what a Claude Code hook reads for it. Answer needs it to
// translate a rewritten tool_input back.
type Call struct {
	Event       string // Hermes
	ClaudeEvent string
	HermesTool  string
	HermesArgs  *pyjson.Object
	Tool        string         // Claude's tool name ("" on other events)
	ToolInput   *pyjson.Object // Claude's tool_input (nil on other events)
	Cwd         string
	// Row is the tool row that translated the call; nil when the tool
	// has none and passes through under its Hermes name.
	Row *ToolRow
}

// Input reads the payload Hermes gives a shell hook at event (SPEC §6, the
// wire shape) and returns the call and the stdin a Claude Code hook reads
// for it: hook_event_name (Claude's), session_id, transcript_path (null),
// cwd, permission_mode ("default") and the event's own fields.
func Input(event string, payload []byte) (*Call, []byte, error) {
	ce := ClaudeEvent(event)
	if ce == "" {
		return nil, nil, fmt.Errorf("event %s has no Claude Code counterpart", event)
	}
	p, err := pyjson.DecodeObject(payload)
	if err != nil {
		return nil, nil, fmt.Errorf("the payload is not a JSON object: %w", err)
	}
	extra, _ := p.Value("extra").(*pyjson.Object)
	c := &Call{Event: event, ClaudeEvent: ce, Cwd: p.Str("cwd")}
	session := p.Str("session_id")
	if session == "" {
		session = extra.Str("parent_session_id")
	}
	out := pyjson.NewObject().
		Set("session_id", session).
		Set("transcript_path", nil).
		Set("cwd", c.Cwd).
		Set("permission_mode", "default").
		Set("hook_event_name", ce)
	switch ce {
	case "PreToolUse", "PostToolUse":
		c.HermesTool = p.Str("tool_name")
		c.HermesArgs, _ = p.Value("tool_input").(*pyjson.Object)
		if c.HermesArgs == nil {
			c.HermesArgs = pyjson.NewObject()
		}
		c.Row = RowFor(c.HermesTool, c.HermesArgs)
		c.Tool, c.ToolInput = ToClaude(c.Row, c.HermesTool, c.HermesArgs, c.Cwd)
		out.Set("tool_name", c.Tool).Set("tool_input", c.ToolInput)
		if id := extra.Str("tool_call_id"); id != "" {
			out.Set("tool_use_id", id)
		}
		if ce == "PostToolUse" {
			out.Set("tool_response", toolResponse(extra.Value("result")))
		}
	case "UserPromptSubmit":
		out.Set("prompt", extra.Str("user_message"))
	case "SessionStart":
		out.Set("source", "startup")
		if m := extra.Str("model"); m != "" {
			out.Set("model", m)
		}
	case "SessionEnd":
		out.Set("reason", SessionEndReason)
	case "Stop":
		// A second try of the same final answer is Claude's stop hook
		// firing again after it asked to go on.
		attempt, _ := extra.Value("attempt").(json.Number)
		n, _ := strconv.Atoi(string(attempt))
		out.Set("stop_hook_active", n > 1)
		if r := extra.Str("final_response"); r != "" {
			out.Set("last_assistant_message", r)
		}
	case "SubagentStart":
		out.Set("agent_id", extra.Str("child_session_id"))
		out.Set("agent_type", extra.Str("child_role"))
	case "SubagentStop":
		out.Set("stop_hook_active", false)
		out.Set("agent_type", extra.Str("child_role"))
		if s := extra.Str("child_summary"); s != "" {
			out.Set("last_assistant_message", s)
		}
	}
	return c, pyjson.Marshal(out, pyjson.Options{}), nil
}

// SessionEndReason is what a SessionEnd hook reads as reason: Hermes'
// turn_exit_reason values are not Claude's (clear, logout,
// prompt_input_exit, other).
const SessionEndReason = "other"

// SessionStartSource is what a SessionStart hook reads as source: the
// agent fires on_session_start for new sessions only.
const SessionStartSource = "startup"

// Env is the environment a Claude Code hook expects beside Hermes' own:
// CLAUDE_PROJECT_DIR, the project's root (the working directory when the
// hook belongs to no project).
func Env(projectDir, cwd string) []string {
	if projectDir == "" {
		projectDir = cwd
	}
	return []string{"CLAUDE_PROJECT_DIR=" + projectDir}
}

// Inside reports whether cwd is projectDir or below it: a project's hooks
// answer nothing elsewhere. An empty projectDir is everywhere.
//
// Both are compared after resolving symlinks (SPEC §24 item 2): the agent
// reports the physical path of its working folder, and a project given as
// a path through a link is the same project.
func Inside(cwd, projectDir string) bool {
	if projectDir == "" {
		return true
	}
	p := strings.TrimRight(physical(projectDir), "/")
	if p == "" {
		return true
	}
	cwd = physical(cwd)
	return cwd == p || strings.HasPrefix(cwd, p+"/")
}

// physical is path with its symlinks resolved, or as it is when it cannot
// be (it does not exist).
func physical(path string) string {
	if path == "" {
		return path
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return filepath.Clean(path)
}

// toolResponse is Hermes' result as Claude Code's tool_response: a result
// that is JSON text (most tools return one) is given as the value it
// holds.
func toolResponse(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if d, err := pyjson.Decode([]byte(t)); err == nil {
			return d
		}
	}
	return s
}

// RowFor is the tool row that translates a Hermes call, nil when none.
func RowFor(tool string, args *pyjson.Object) *ToolRow {
	var m map[string]any
	for i := range Tools {
		r := &Tools[i]
		if r.Hermes != tool || (r.MatcherOnly && !firstFor(i)) {
			continue
		}
		if r.When != nil {
			if m == nil {
				m = shallow(args)
			}
			if !r.When(m) {
				continue
			}
		}
		return r
	}
	return nil
}

// firstFor: a matcher-only row names the tool in the payload only when it
// is the first row of its Hermes tool (patch calls are Edit, not
// MultiEdit; search_files calls are Glob or Grep, never LS).
func firstFor(i int) bool {
	for j := 0; j < i; j++ {
		if Tools[j].Hermes == Tools[i].Hermes {
			return false
		}
	}
	return true
}

func shallow(o *pyjson.Object) map[string]any {
	m := make(map[string]any, o.Len())
	for _, mem := range o.Members() {
		m[mem.Key] = mem.Value
	}
	return m
}

// ToClaude names a Hermes call as Claude Code would: the tool's Claude
// name and its arguments under Claude's field names, a relative path made
// absolute against cwd (with its symlinks resolved: SPEC §24 item 2, the
// agent's own view of its folder). Without a row the call passes through
// under its Hermes name.
func ToClaude(r *ToolRow, tool string, args *pyjson.Object, cwd string) (string, *pyjson.Object) {
	if r == nil {
		return tool, args.Clone()
	}
	out := pyjson.NewObject()
	for _, m := range args.Members() {
		f, ok := r.field(m.Key, true)
		if !ok {
			out.Set(m.Key, m.Value)
			continue
		}
		v := m.Value
		switch {
		case f.One:
			l, _ := v.([]any)
			if len(l) == 1 {
				v = l[0]
			}
		case f.Scale != 0:
			v = scale(v, f.Scale)
		case f.Path:
			v = absolute(v, cwd)
		}
		if names, ok := r.Values[f.Claude]; ok {
			if s, isStr := v.(string); isStr {
				if n, ok := names[s]; ok {
					v = n
				}
			}
		}
		out.Set(f.Claude, v)
	}
	for k, v := range r.Defaults {
		if !out.Has(k) {
			out.Set(k, v)
		}
	}
	for k, v := range r.Fixed {
		out.Set(k, v)
	}
	return r.Claude, out
}

// absolute is a relative path v joined to the physical cwd. A path that
// is absolute, starts with ~ (the agent expands it), is empty or is not a
// string, or a call without a cwd, is left as it is.
func absolute(v any, cwd string) any {
	p, ok := v.(string)
	if !ok || p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") || cwd == "" || !filepath.IsAbs(cwd) {
		return v
	}
	return filepath.Join(physical(cwd), p)
}

// field finds the row's field by its Hermes name (hermes) or Claude name.
func (r *ToolRow) field(name string, hermes bool) (Field, bool) {
	for _, f := range r.Fields {
		if (hermes && f.Hermes == name) || (!hermes && f.Claude == name) {
			return f, true
		}
	}
	return Field{}, false
}

// finite is v as a float when it is a finite JSON number.
func finite(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

func scale(v any, by int) any {
	f, ok := finite(v)
	if !ok {
		return v
	}
	if r := f * float64(by); r == math.Trunc(r) && math.Abs(r) < 1e15 {
		return json.Number(strconv.FormatInt(int64(r), 10))
	}
	return json.Number(pyjson.FormatFloat(f * float64(by)))
}

// unscale divides a Claude value back, rounding up (5500 ms is 6 s).
func unscale(v any, by int) any {
	f, ok := finite(v)
	if !ok {
		return v
	}
	return json.Number(strconv.FormatInt(int64(math.Ceil(f/float64(by))), 10))
}
