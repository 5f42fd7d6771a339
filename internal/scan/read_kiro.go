package scan

import (
	"fmt"
	"strings"
)

// readKiro reads Kiro's hook files in .kiro/hooks/: the IDE's *.kiro.hook
// ({"enabled": B, "when": {"type": T}, "then": {"type": "runCommand",
// "command": C}}) and the CLI's *.json ({"version": "v1", "hooks":
// [{"trigger": T, "matcher": M, "action": {"type": "command", "command":
// C}, "enabled": B}]}). Agent-prompt actions run no command. A hook file
// Kiro cannot parse is not loaded; a hook with "enabled": false is off.
func readKiro(c *checkout, a *Agent) reading {
	var files []string
	for _, rel := range c.glob(".kiro/hooks/*") {
		if strings.HasSuffix(rel, ".kiro.hook") || strings.HasSuffix(rel, ".json") {
			files = append(files, rel)
		}
	}
	return readJSONFiles(c, files, parseJSON, func(rel string, root *jv) reading {
		var out reading
		if strings.HasSuffix(rel, ".kiro.hook") {
			if h, ok := kiroHook(root, root.get("when"), "type", root.get("then"), "runCommand"); ok {
				h.File = rel
				out.hooks = append(out.hooks, h)
			}
			return out
		}
		list := root.get("hooks")
		if list == nil || list.kind != 'a' {
			out.problems = append(out.problems, fileProblem{file: rel, line: root.line,
				reason: fmt.Sprintf("\"hooks\" is %s, not an array", list.kindName())})
			return out
		}
		for _, item := range list.arr {
			if h, ok := kiroHook(item, item, "trigger", item.get("action"), "command"); ok {
				h.File = rel
				out.hooks = append(out.hooks, h)
			}
		}
		return out
	})
}

// kiroHook reads one hook: on is where "enabled" is, trig holds the trigger
// under key, act the action whose type must be run.
func kiroHook(on, trig *jv, key string, act *jv, run string) (Hook, bool) {
	if e := on.get("enabled"); e != nil && e.kind == 'b' && !e.b {
		return Hook{}, false
	}
	if t, _ := act.get("type").text(); t != run {
		return Hook{}, false
	}
	cmd, ok := act.get("command").text()
	if !ok || strings.TrimSpace(cmd) == "" {
		return Hook{}, false
	}
	event, _ := trig.get(key).text()
	h := Hook{Line: act.get("command").line, Event: event, Command: cmd, shell: true}
	if m, ok := on.get("matcher").text(); ok {
		h.Matcher = &m
	}
	return h, true
}
