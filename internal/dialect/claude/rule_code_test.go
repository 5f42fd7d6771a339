package claude

import (
	"os"
	"path/filepath"
	"testing"
)

// SPEC §24 item 3: Bash rules match each simple command of the shell
// parse; file rules every file of a V4A patch, both ends of a move.
func TestRulesSeeWhatRuns(t *testing.T) {
	bash := func(cmd string) *Call {
		c, _, err := Input("pre_tool_call", []byte(`{"tool_name": "terminal", "tool_input": {"command": `+quoteJSON(cmd)+`}, "cwd": "/p"}`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r, err := ParseRule("Bash(git push:*)")
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"GIT_TRACE=1 git push origin", "(git   push)", "{ true; git\tpush; }", `"git" push`, "echo ok; if true; then git push; fi"} {
		if !r.Match(bash(cmd), "/p", "/h") {
			t.Errorf("Bash(git push:*) does not match %q", cmd)
		}
	}
	if r.Match(bash("echo git push"), "/p", "/h") {
		t.Error("an argument matched as a command")
	}

	env, err := ParseRule("Edit(*.env)")
	if err != nil {
		t.Fatal(err)
	}
	for name, patch := range map[string]string{
		"update": "*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Update File: .env\n@@\n-x\n+y\n*** End Patch",
		"add":    "*** Begin Patch\n*** Add File: prod.env\n+SECRET=1\n*** End Patch",
		"delete": "*** Begin Patch\n*** Delete File: .env\n*** End Patch",
		"move":   "*** Begin Patch\n*** Move File: notes.txt -> .env\n*** End Patch",
		"moveto": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.env\n@@\n-a\n+b\n*** End Patch",
	} {
		c, _, err := Input("pre_tool_call", []byte(`{"tool_name": "patch", "tool_input": {"mode": "patch", "patch": `+quoteJSON(patch)+`}, "cwd": "/p"}`))
		if err != nil {
			t.Fatal(err)
		}
		if !env.Match(c, "/p", "/h") {
			t.Errorf("%s: Edit(*.env) does not see the .env file of the patch (tool %q)", name, c.Tool)
		}
	}
}

// SPEC §24 item 2: a project through a symlink is the same project.
func TestInsideThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if !Inside(filepath.Join(real, "sub"), link) || !Inside(filepath.Join(link, "sub"), real) {
		t.Error("a project given through a symlink is not the same project")
	}
	if Inside(dir, link) {
		t.Error("the folder above the project counted as inside")
	}
}

func quoteJSON(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			b = append(b, '\\', byte(r))
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}
