package scan

import (
	"fmt"
	"strconv"
	"strings"
)

// readAntigravity reads .agents/hooks.json and .agent/hooks.json:
// {"<hook name>": {"enabled": B, "PreToolUse": [{"matcher": M, "hooks":
// [handler]}], "SessionStart": [handler], …}}. Antigravity reads the file
// with Go's encoding/json and rejects it whole on any error — invalid JSON
// (a trailing comma, a comment, NaN), a value of the wrong kind anywhere, an
// unknown handler type, a command hook with a prompt, a timeout that is not
// a 32-bit integer — logging one line to its debug log: every hook of the
// file stops running. An event name it does not dispatch is only discarded.
// Event names match whatever their case.
func readAntigravity(c *checkout, a *Agent) reading {
	return readJSONFiles(c, []string{".agents/hooks.json", ".agent/hooks.json"}, parseJSON,
		func(rel string, root *jv) reading { return antigravityFile(a, rel, root) })
}

func antigravityFile(a *Agent, rel string, root *jv) reading {
	var r reading
	drop := func(line int, format string, args ...any) {
		r.problems = append(r.problems, fileProblem{file: rel, line: line, reason: fmt.Sprintf(format, args...)})
	}
	for _, named := range root.members() {
		if named.key == "enabled" {
			drop(named.line, "\"enabled\" at the top level: every top-level key is a hook's name (put it inside one)")
			continue
		}
		if named.val.kind != 'o' {
			drop(named.line, "hook %q is %s, not an object", named.key, named.val.kindName())
			continue
		}
		on := true
		if e := named.val.get("enabled"); e != nil {
			if e.kind != 'b' {
				drop(e.line, "hook %q: \"enabled\" is %s, not a boolean", named.key, e.kindName())
			} else {
				on = e.b
			}
		}
		for _, ev := range named.val.members() {
			if ev.key == "enabled" {
				continue
			}
			if ev.val.kind != 'a' {
				drop(ev.line, "hook %q: event %q is %s, not an array", named.key, ev.key, ev.val.kindName())
				continue
			}
			grouped := strings.EqualFold(ev.key, "PreToolUse") || strings.EqualFold(ev.key, "PostToolUse")
			for i, item := range ev.val.arr {
				where := fmt.Sprintf("%s.%s[%d]", named.key, ev.key, i)
				if item.kind != 'o' {
					drop(item.line, "%s is %s, not an object", where, item.kindName())
					continue
				}
				if !grouped {
					if h, ok := antigravityHandler(where, item, nil, drop); ok && on && a.Known(ev.key) {
						h.File, h.Event = rel, ev.key
						r.hooks = append(r.hooks, h)
					}
					continue
				}
				var matcher *string
				if m := item.get("matcher"); m != nil {
					s, ok := m.text()
					if !ok {
						drop(m.line, "%s.matcher is %s, not a string", where, m.kindName())
					}
					matcher = &s
				}
				hs := item.get("hooks")
				if hs != nil && hs.kind != 'a' {
					drop(hs.line, "%s.hooks is %s, not an array", where, hs.kindName())
					continue
				}
				if hs == nil {
					continue
				}
				for j, hv := range hs.arr {
					hw := fmt.Sprintf("%s.hooks[%d]", where, j)
					if hv.kind != 'o' {
						drop(hv.line, "%s is %s, not an object", hw, hv.kindName())
						continue
					}
					if h, ok := antigravityHandler(hw, hv, matcher, drop); ok && on && a.Known(ev.key) {
						h.File, h.Event = rel, ev.key
						r.hooks = append(r.hooks, h)
					}
				}
			}
		}
	}
	return r
}

// antigravityHandler checks one handler as Antigravity does and returns
// the hook of a command handler (ok false for a prompt, or a command
// handler with no command, which loads and runs nothing).
func antigravityHandler(where string, h *jv, matcher *string, drop func(int, string, ...any)) (Hook, bool) {
	typ := "command"
	if t := h.get("type"); t != nil {
		s, ok := t.text()
		if !ok || s != "command" && s != "prompt" {
			drop(t.line, "%s.type is %s: only \"command\" and \"prompt\" (case-sensitive)", where, describe(t))
			return Hook{}, false
		}
		typ = s
	}
	if t := h.get("timeout"); t != nil {
		if _, err := strconv.ParseInt(t.str, 10, 32); t.kind != 'n' || err != nil {
			drop(t.line, "%s.timeout is %s: a whole number of seconds (32-bit)", where, describe(t))
		}
	}
	cmd := h.get("command")
	if typ == "prompt" {
		if cmd != nil {
			drop(cmd.line, "%s is a prompt hook with a \"command\"", where)
		}
		return Hook{}, false
	}
	for _, k := range []string{"prompt", "model"} {
		if v := h.get(k); v != nil {
			drop(v.line, "%s is a command hook with a %q", where, k)
		}
	}
	if cmd != nil && cmd.kind != 's' {
		drop(cmd.line, "%s.command is %s, not a string", where, cmd.kindName())
		return Hook{}, false
	}
	if s, _ := cmd.text(); strings.TrimSpace(s) != "" {
		return Hook{Line: cmd.line, Matcher: matcher, Command: s, shell: true}, true
	}
	return Hook{}, false
}

// describe shows a scalar value as written, or its kind.
func describe(v *jv) string {
	switch v.kind {
	case 's':
		return strconv.Quote(v.str)
	case 'n':
		return v.str
	}
	return v.kindName()
}
