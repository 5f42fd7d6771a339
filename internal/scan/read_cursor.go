package scan

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

// readCursor reads .cursor/hooks.json: {"version": 1, "hooks": {event:
// [{"command": C, "matcher": M}]}}. Cursor validates the file as a whole
// and loads no hook from it when anything is wrong — a version that is not
// a number ("Config version must be a number"), an entry of the wrong
// shape, or one event name it does not dispatch — so a typo in one event
// switches off every other hook of the file. Project hooks run with the
// shell in the project folder.
func readCursor(c *checkout, a *Agent) reading {
	return readJSONFiles(c, []string{".cursor/hooks.json"}, parseJSON,
		func(rel string, root *jv) reading { return cursorFile(a, rel, root) })
}

func cursorFile(a *Agent, rel string, root *jv) reading {
	var r reading
	drop := func(line int, format string, args ...any) {
		r.problems = append(r.problems, fileProblem{file: rel, line: line, reason: fmt.Sprintf(format, args...)})
	}
	if v := root.get("version"); v == nil || v.kind != 'n' {
		drop(root.line, "\"version\" is %s, not a number", v.kindName())
	}
	hooks := root.get("hooks")
	if hooks == nil || hooks.kind != 'o' {
		drop(root.line, "\"hooks\" is %s, not an object", hooks.kindName())
		return r
	}
	for _, ev := range hooks.members() {
		if !a.Known(ev.key) {
			msg := fmt.Sprintf("unknown event %q", ev.key)
			if s := suggest.Closest(ev.key, a.Events); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			drop(ev.line, "%s", msg)
		}
		if ev.val.kind != 'a' {
			drop(ev.line, "event %q is %s, not an array", ev.key, ev.val.kindName())
			continue
		}
		for i, h := range ev.val.arr {
			if h.kind != 'o' {
				drop(h.line, "hooks.%s[%d] is %s, not an object", ev.key, i, h.kindName())
				continue
			}
			if t, _ := h.get("type").text(); t == "prompt" {
				continue
			}
			cmd, ok := h.get("command").text()
			if !ok || cmd == "" {
				drop(h.line, "hooks.%s[%d] has no command", ev.key, i)
				continue
			}
			var matcher *string
			if m, ok := h.get("matcher").text(); ok {
				matcher = &m
			}
			r.hooks = append(r.hooks, Hook{File: rel, Line: h.get("command").line, Event: ev.key, Matcher: matcher,
				Command: cmd, shell: true})
		}
	}
	return r
}
