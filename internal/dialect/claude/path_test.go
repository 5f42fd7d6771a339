package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// TestInputAbsolutePaths: Claude Code always sends absolute paths, Hermes'
// file tools take relative ones; the dialect joins a relative path to the
// payload's cwd with its symlinks resolved (SPEC §24 item 2), and leaves
// alone what is not a relative path.
func TestInputAbsolutePaths(t *testing.T) {
	real := filepath.Join(t.TempDir(), "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	real, _ = filepath.EvalSymlinks(real)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return string(pyjson.Marshal(s, pyjson.Options{})) }
	for _, tc := range []struct {
		name, cwd, tool, args, key string
		want                       any
	}{
		{"write through a link", link, "write_file", `{"path": "README.md", "content": ""}`, "file_path", filepath.Join(real, "README.md")},
		{"read", real, "read_file", `{"path": "src/a.go"}`, "file_path", filepath.Join(real, "src/a.go")},
		{"edit", real, "patch", `{"path": "a.go", "old_string": "a", "new_string": "b"}`, "file_path", filepath.Join(real, "a.go")},
		{"grep folder", real, "search_files", `{"pattern": "x", "path": "."}`, "path", real},
		// ../ is cleaned away: a guard comparing prefixes sees where it goes.
		{"escape", real, "write_file", `{"path": "../../etc/passwd"}`, "file_path", filepath.Join(real, "../../etc/passwd")},
		{"absolute", real, "write_file", `{"path": "/etc/hosts"}`, "file_path", "/etc/hosts"},
		{"home", real, "write_file", `{"path": "~/.bashrc"}`, "file_path", "~/.bashrc"},
		{"no cwd", "", "write_file", `{"path": "a"}`, "file_path", "a"},
		{"relative cwd", "sub", "write_file", `{"path": "a"}`, "file_path", "a"},
		{"not a string", real, "write_file", `{"path": ["a"]}`, "file_path", []any{"a"}},
		{"terminal untouched", real, "terminal", `{"command": "cat a", "workdir": "w"}`, "workdir", "w"},
	} {
		payload := `{"tool_name": "` + tc.tool + `", "tool_input": ` + tc.args + `, "cwd": ` + q(tc.cwd) + `}`
		c, _, err := Input("pre_tool_call", []byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		got := string(pyjson.Marshal(c.ToolInput.Value(tc.key), pyjson.Options{}))
		if want := string(pyjson.Marshal(tc.want, pyjson.Options{})); got != want {
			t.Errorf("%s: %s = %s, want %s", tc.name, tc.key, got, want)
		}
		// The agent's own arguments are not changed.
		if c.HermesArgs.String() != mustObject(t, tc.args).String() {
			t.Errorf("%s: Hermes args became %s", tc.name, c.HermesArgs)
		}
	}
}

// TestUpdatedInputKeepsRelativePath: a hook that rewrites the content and
// sends back the absolute path it read leaves the agent's relative path
// as it was (the agent decides which folder it is in); a path the hook
// changed goes back as the hook wrote it.
func TestUpdatedInputKeepsRelativePath(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	q := func(s string) string { return string(pyjson.Marshal(s, pyjson.Options{})) }
	c, _, err := Input("pre_tool_call", []byte(`{"tool_name": "write_file", "tool_input": {"path": "a.txt", "content": "x"}, "cwd": `+q(dir)+`}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ updated, want string }{
		{`{"file_path": ` + q(filepath.Join(dir, "a.txt")) + `, "content": "y"}`, `{"action": "modify", "args": {"path": "a.txt", "content": "y"}}`},
		{`{"file_path": "/tmp/elsewhere.txt", "content": "y"}`, `{"action": "modify", "args": {"path": "/tmp/elsewhere.txt", "content": "y"}}`},
		{`{"file_path": ["x"], "content": "y"}`, `{"action": "modify", "args": {"path": ["x"], "content": "y"}}`},
	} {
		out := `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": ` + tc.updated + `}}`
		rep := Answer(c, Run{Stdout: []byte(out)})
		if got := strings.TrimSpace(string(rep.Stdout)); got != tc.want {
			t.Errorf("updatedInput %s:\n got  %s\n want %s", tc.updated, got, tc.want)
		}
	}
}

func mustObject(t *testing.T, s string) *pyjson.Object {
	t.Helper()
	o, err := pyjson.DecodeObject([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestRuleThroughLinkedCwd: a project rule sees a V4A patch's relative
// files and a relative path alike when the payload's cwd is a link to
// the project (the project is recorded by its physical path).
func TestRuleThroughLinkedCwd(t *testing.T) {
	real, _ := filepath.EvalSymlinks(t.TempDir())
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return string(pyjson.Marshal(s, pyjson.Options{})) }
	r, err := ParseRule("Edit(/src/**)")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"path": "src/a.go", "content": ""}`,
		`{"mode": "patch", "patch": "*** Begin Patch\n*** Add File: src/a.go\n+x\n*** End Patch"}`,
	} {
		tool := "write_file"
		if strings.Contains(args, "patch") {
			tool = "patch"
		}
		c, _, err := Input("pre_tool_call", []byte(`{"tool_name": "`+tool+`", "tool_input": `+args+`, "cwd": `+q(link)+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Match(c, real, "") {
			t.Errorf("Edit(/src/**) with the project %s misses %s %s from %s", real, tool, args, link)
		}
	}
}
