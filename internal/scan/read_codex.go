package scan

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// readCodex reads .codex/hooks.json and the [hooks] tables of
// .codex/config.toml, the two places Codex looks beside a project's config
// layer; hooks from both run. Codex runs a command with the shell, in the
// project folder.
func readCodex(c *checkout, a *Agent) reading {
	out := readJSONFiles(c, []string{".codex/hooks.json"}, parseJSON,
		func(rel string, root *jv) reading { return groupsShape(a, rel, root.get("hooks"), true) })
	out.add(readCodexTOML(c, ".codex/config.toml"))
	return out
}

// readCodexTOML reads [[hooks.Event]] groups with [[hooks.Event.hooks]]
// handlers. A config.toml Codex cannot parse is dropped whole (Codex
// refuses to start on it; its other settings are lost too).
func readCodexTOML(c *checkout, rel string) reading {
	data, exists, err := c.readFile(rel)
	if !exists && err == nil {
		return reading{}
	}
	drop := func(line int, reason string) reading {
		return reading{problems: []fileProblem{{file: rel, line: line, reason: reason}}}
	}
	if err != nil {
		return drop(0, "cannot be read: "+err.Error())
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		line := 0
		if de, ok := err.(*toml.DecodeError); ok {
			line, _ = de.Position()
		}
		return drop(line, "not valid TOML: "+err.Error())
	}
	hooksV, ok := doc["hooks"]
	if !ok {
		return reading{}
	}
	hooks, ok := hooksV.(map[string]any)
	if !ok {
		return drop(0, "[hooks] is not a table")
	}
	lines := commandLines(string(data))
	var out reading
	events := make([]string, 0, len(hooks))
	for ev := range hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		groups, ok := hooks[ev].([]any)
		if !ok {
			return drop(0, fmt.Sprintf("hooks.%s is not an array of tables", ev))
		}
		n := 0
		for _, g := range groups {
			gm, ok := g.(map[string]any)
			if !ok {
				return drop(0, fmt.Sprintf("hooks.%s holds something that is not a table", ev))
			}
			var matcher *string
			if m, ok := gm["matcher"].(string); ok {
				matcher = &m
			}
			handlers, _ := gm["hooks"].([]any)
			for _, h := range handlers {
				hm, ok := h.(map[string]any)
				if !ok {
					continue
				}
				if t, _ := hm["type"].(string); t != "" && t != "command" {
					continue
				}
				cmd, _ := hm["command"].(string)
				if cmd == "" {
					continue
				}
				line := 0
				if n < len(lines[ev]) {
					line = lines[ev][n]
				}
				n++
				out.hooks = append(out.hooks, Hook{File: rel, Line: line, Event: ev, Matcher: matcher, Command: cmd, shell: true})
			}
		}
	}
	sort.SliceStable(out.hooks, func(i, j int) bool { return out.hooks[i].Line < out.hooks[j].Line })
	return out
}

// Compiled on first use, like findings.go's patterns.
var (
	tomlHeader = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*\[\[?\s*hooks\.("?)([^".\]]+)("?)`)
	})
	tomlCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*command\s*=`) })
)

// commandLines finds, per event, the lines of `command =` under
// [[hooks.Event.hooks]] headers, in file order: the TOML library gives no
// positions, and the lines are how a reviewer finds a hook.
func commandLines(text string) map[string][]int {
	out := map[string][]int{}
	event := ""
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			event = ""
			if m := tomlHeader().FindStringSubmatch(l); m != nil {
				event = m[2]
			}
			continue
		}
		if event != "" && tomlCommand().MatchString(l) {
			out[event] = append(out[event], i+1)
		}
	}
	return out
}
