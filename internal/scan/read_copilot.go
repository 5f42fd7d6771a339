package scan

import (
	"fmt"
	"path/filepath"
)

// readCopilot reads .github/hooks/*.json: {"version": 1, "hooks": {event:
// [{"type": "command", "bash": C, "powershell": P, "cwd": D}]}}. On Linux
// and macOS the bash command runs, in cwd (relative to the repository's
// root) or the root. A file Copilot cannot parse loads no hook.
func readCopilot(c *checkout, a *Agent) reading {
	return readJSONFiles(c, c.glob(".github/hooks/*.json"), parseJSON, func(rel string, root *jv) reading {
		var out reading
		hooks := root.get("hooks")
		if hooks == nil || hooks.kind != 'o' {
			out.problems = append(out.problems, fileProblem{file: rel, line: root.line,
				reason: fmt.Sprintf("\"hooks\" is %s, not an object", hooks.kindName())})
			return out
		}
		for _, ev := range hooks.members() {
			for _, h := range ev.val.arr {
				if t, _ := h.get("type").text(); t != "command" && t != "" {
					continue
				}
				cmd, ok := h.get("bash").text()
				if !ok || cmd == "" {
					continue
				}
				hook := Hook{File: rel, Line: h.get("bash").line, Event: ev.key, Command: cmd, shell: true}
				if d, ok := h.get("cwd").text(); ok && d != "" {
					if filepath.IsAbs(d) {
						hook.dir = d
					} else {
						hook.dir = c.abs(d)
					}
				}
				out.hooks = append(out.hooks, hook)
			}
		}
		return out
	})
}
