package casefile

import (
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// canary is an everyday call of the agent: the tool and its arguments as
// the agent's tools take them (/work/shared/hermes-tools.json's names and
// argument shapes).
type canary struct {
	tool string
	args string // a JSON object
}

// starter is the canary starter set (SPEC §26): calls an agent makes all
// day that no guard should refuse. A guard that blocks one of them stalls
// the agent (a public report: one that refused `mkdir -p /tmp/x
// 2>/dev/null` stalled an agent for a day).
var starter = []canary{
	// Looking around.
	{"terminal", `{"command": "ls -la"}`},
	{"terminal", `{"command": "ls"}`},
	{"terminal", `{"command": "pwd"}`},
	{"terminal", `{"command": "cat README.md"}`},
	{"terminal", `{"command": "head -n 50 src/main.py"}`},
	{"terminal", `{"command": "tail -n 100 logs/app.log"}`},
	{"terminal", `{"command": "grep -rn TODO src/"}`},
	{"terminal", `{"command": "find . -name '*.py' -type f"}`},
	{"terminal", `{"command": "wc -l src/*.go"}`},
	{"terminal", `{"command": "which python3"}`},
	{"terminal", `{"command": "python3 --version"}`},
	{"terminal", `{"command": "echo hello"}`},
	{"terminal", `{"command": "du -sh ."}`},
	{"terminal", `{"command": "df -h"}`},
	// Version control.
	{"terminal", `{"command": "git status"}`},
	{"terminal", `{"command": "git diff"}`},
	{"terminal", `{"command": "git diff --staged"}`},
	{"terminal", `{"command": "git log --oneline -20"}`},
	{"terminal", `{"command": "git branch -a"}`},
	{"terminal", `{"command": "git add -A"}`},
	{"terminal", `{"command": "git commit -m \"Fix typo in README\""}`},
	{"terminal", `{"command": "git switch -c fix/readme-typo"}`},
	{"terminal", `{"command": "git stash"}`},
	{"terminal", `{"command": "git fetch origin"}`},
	// Building and testing, and cleaning up after.
	{"terminal", `{"command": "mkdir -p /tmp/x 2>/dev/null"}`},
	{"terminal", `{"command": "mkdir -p build"}`},
	{"terminal", `{"command": "rm -rf ./build"}`},
	{"terminal", `{"command": "rm -rf node_modules"}`},
	{"terminal", `{"command": "touch src/__init__.py"}`},
	{"terminal", `{"command": "chmod +x scripts/build.sh"}`},
	{"terminal", `{"command": "npm install"}`},
	{"terminal", `{"command": "npm test"}`},
	{"terminal", `{"command": "npm run build"}`},
	{"terminal", `{"command": "pytest -q"}`},
	{"terminal", `{"command": "python -m pytest tests/ -x"}`},
	{"terminal", `{"command": "pip install -r requirements.txt"}`},
	{"terminal", `{"command": "go build ./..."}`},
	{"terminal", `{"command": "go test ./..."}`},
	{"terminal", `{"command": "cargo test"}`},
	{"terminal", `{"command": "make test"}`},
	{"terminal", `{"command": "npm run lint", "workdir": "web", "timeout": 300}`},
	{"terminal", `{"command": "python3 -m http.server 8000", "background": true}`},
	// Files.
	{"read_file", `{"path": "README.md"}`},
	{"read_file", `{"path": "src/main.py", "offset": 1, "limit": 200}`},
	{"write_file", `{"path": "README.md", "content": "# Project\n\nHow to build it: make.\n"}`},
	{"write_file", `{"path": "src/utils/helpers.py", "content": "def add(a, b):\n    return a + b\n"}`},
	{"patch", `{"path": "README.md", "old_string": "teh", "new_string": "the"}`},
	{"patch", `{"path": "src/app.py", "old_string": "DEBUG = True", "new_string": "DEBUG = False"}`},
	{"search_files", `{"pattern": "TODO", "path": "src"}`},
	{"search_files", `{"pattern": "*.py", "target": "files"}`},
	// The web and the rest of the day.
	{"web_extract", `{"urls": ["https://docs.python.org/3/library/json.html"]}`},
	{"web_search", `{"query": "python subprocess communicate timeout"}`},
	{"browser_navigate", `{"url": "https://developer.mozilla.org/en-US/docs/Web/JavaScript"}`},
	{"process_manage", `{"action": "list"}`},
	{"todo_list", `{"todos": [{"id": "1", "content": "Write the tests", "status": "pending"}]}`},
	{"skills_list", `{}`},
}

// Canaries is the starter set as cases: each a pre_tool_call marked
// canary (it must be allowed).
func Canaries() []Case {
	out := make([]Case, 0, len(starter))
	for _, c := range starter {
		args, err := pyjson.DecodeObject([]byte(c.args))
		if err != nil {
			panic("canary " + c.tool + ": " + err.Error()) // a typo in the table above
		}
		payload := pyjson.NewObject().Set("tool_name", c.tool).Set("args", args)
		name := c.tool
		if s := summary(args); s != "" {
			name += ": " + s
		}
		out = append(out, Case{Name: "canary: " + name, Event: eventPreToolCall, Canary: true,
			Payload: pyjson.Marshal(payload, pyjson.Options{})})
	}
	return out
}

// CanaryMadeBy starts the first comment of a canary file: such a file
// may be written over by canaries again.
const CanaryMadeBy = "Canaries made by `hermes hooks cases canaries`"

// CanaryHeader is the canary file's first comment.
func CanaryHeader() []string {
	return []string{
		CanaryMadeBy + ": everyday calls of the agent that no guard should block.",
		"A canary needs no expect (it must be allowed); a blocked canary fails the run. Add your own, keep the ones that fit.",
		"Run them with: hermes hooks test --cases FILE",
	}
}
