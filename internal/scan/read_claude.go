package scan

import (
	"fmt"
	"path"
)

// groupsShape reads the shape Claude Code introduced and Codex and Gemini
// CLI copied: {"hooks": {Event: [{"matcher": M, "hooks": [{"type":
// "command", "command": C}]}]}}. strict: the agent validates the whole
// file against a schema and drops it on any mistake (Claude Code: "files
// with errors are skipped entirely"; Codex deserialises it with serde); a
// lenient agent skips what it cannot read. Handlers that are not commands
// (prompt, agent, http) run no local code and are not listed.
func groupsShape(a *Agent, rel string, hooks *jv, strict bool) reading {
	var r reading
	drop := func(line int, format string, args ...any) {
		r.problems = append(r.problems, fileProblem{file: rel, line: line, reason: fmt.Sprintf(format, args...)})
	}
	if hooks == nil || hooks.kind == 'z' {
		return r
	}
	if hooks.kind != 'o' {
		if strict {
			drop(hooks.line, "\"hooks\" is %s, not an object", hooks.kindName())
		}
		return r
	}
	for _, ev := range hooks.members() {
		if ev.val.kind != 'a' {
			// Gemini CLI keeps switches beside the events ("enabled",
			// "disabled"): not an event.
			if strict {
				drop(ev.line, "event %q is %s, not an array", ev.key, ev.val.kindName())
			}
			continue
		}
		for gi, g := range ev.val.arr {
			where := fmt.Sprintf("hooks.%s[%d]", ev.key, gi)
			if g.kind != 'o' {
				if strict {
					drop(g.line, "%s is %s, not an object", where, g.kindName())
				}
				continue
			}
			var matcher *string
			if m := g.get("matcher"); m != nil && m.kind != 'z' {
				s, ok := m.text()
				if !ok {
					if strict {
						drop(m.line, "%s.matcher is %s, not a string", where, m.kindName())
					}
					continue
				}
				matcher = &s
			}
			handlers := g.get("hooks")
			if handlers == nil || handlers.kind != 'a' {
				if strict {
					drop(g.line, "%s has no \"hooks\" array (a handler must sit in a matcher group's \"hooks\")", where)
				}
				continue
			}
			for hi, h := range handlers.arr {
				hw := fmt.Sprintf("%s.hooks[%d]", where, hi)
				if h.kind != 'o' {
					if strict {
						drop(h.line, "%s is %s, not an object", hw, h.kindName())
					}
					continue
				}
				if t, _ := h.get("type").text(); t != "" && t != "command" {
					continue
				}
				cmd, ok := h.get("command").text()
				if !ok || cmd == "" {
					if strict && h.get("command") != nil {
						drop(h.line, "%s.command is %s, not a string", hw, h.get("command").kindName())
					}
					continue
				}
				r.hooks = append(r.hooks, Hook{File: rel, Line: h.get("command").line, Event: ev.key,
					Matcher: matcher, Command: cmd, shell: true})
			}
		}
	}
	return r
}

// readJSONFile reads one JSON file of the checkout with the parser the
// agent uses; ok false when the file is absent. A file that cannot be read
// or parsed is a problem.
func readJSONFile(c *checkout, rel string, parse func([]byte) (*jv, error)) (root *jv, problem *fileProblem, ok bool) {
	data, exists, err := c.readFile(rel)
	if err != nil {
		return nil, &fileProblem{file: rel, reason: "cannot be read: " + err.Error()}, true
	}
	if !exists {
		return nil, nil, false
	}
	root, err = parse(data)
	if err != nil {
		line := 0
		if je, isJE := err.(*jsonError); isJE {
			line = je.line
			err = fmt.Errorf("%s", je.msg)
		}
		return nil, &fileProblem{file: rel, line: line, reason: "not valid JSON: " + err.Error()}, true
	}
	if root.kind != 'o' {
		return nil, &fileProblem{file: rel, line: root.line, reason: "the file is " + root.kindName() + ", not an object"}, true
	}
	return root, nil, true
}

// readJSONFiles reads each of rels that is there with parse and adds what
// file makes of it; a file that cannot be read or parsed is one problem
// and nothing else.
func readJSONFiles(c *checkout, rels []string, parse func([]byte) (*jv, error), file func(rel string, root *jv) reading) reading {
	var out reading
	for _, rel := range rels {
		root, prob, ok := readJSONFile(c, rel, parse)
		if !ok {
			continue
		}
		if prob != nil {
			out.problems = append(out.problems, *prob)
			continue
		}
		out.add(file(rel, root))
	}
	return out
}

// readClaude reads .claude/settings.json and .claude/settings.local.json.
// Claude Code runs a hook command with sh -c in the project folder
// ($CLAUDE_PROJECT_DIR).
func readClaude(c *checkout, a *Agent) reading {
	return readJSONFiles(c, []string{".claude/settings.json", ".claude/settings.local.json"}, parseJSON,
		func(rel string, root *jv) reading { return groupsShape(a, rel, root.get("hooks"), true) })
}

// readGemini reads the legacy .gemini/settings.json of Gemini CLI, which
// allows comments; keys it does not know are skipped.
func readGemini(c *checkout, a *Agent) reading {
	return readJSONFiles(c, []string{path.Join(".gemini", "settings.json")}, parseJSONC,
		func(rel string, root *jv) reading { return groupsShape(a, rel, root.get("hooks"), false) })
}
