package scan

import (
	"os"
	"path"
)

// readCline reads .clinerules/hooks/: each hook is an executable file named
// exactly after its event (TaskStart, PreToolUse, …; no extension), run
// directly with the hook's JSON on stdin. A file that is not executable, or
// named after no event, never runs.
func readCline(c *checkout, a *Agent) reading {
	var out reading
	for _, ev := range a.Events {
		rel := path.Join(".clinerules/hooks", ev)
		fi, err := os.Stat(c.abs(rel))
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			continue
		}
		out.hooks = append(out.hooks, Hook{File: rel, Event: ev, Command: "./" + rel, shell: true, exe: true})
	}
	return out
}
