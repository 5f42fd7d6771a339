package claude

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// corpusProject copies testdata/claude-hooks/project to a temporary folder
// (the formatter writes there) and returns it with the Claude commands of
// its settings by script name.
func corpusProject(t *testing.T) (string, map[string]string) {
	t.Helper()
	src, err := filepath.Abs("../../../testdata/claude-hooks/project")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "my project")
	if out, err := exec.Command("cp", "-a", src, dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the corpus: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := pyjson.DecodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]string{}
	hooks, _ := root.Value("hooks").(*pyjson.Object)
	for _, m := range hooks.Members() {
		for _, g := range m.Value.([]any) {
			for _, h := range (g.(*pyjson.Object)).Value("hooks").([]any) {
				c := h.(*pyjson.Object).Str("command")
				if i := strings.Index(c, "/.claude/hooks/"); i >= 0 {
					cmds[strings.Fields(c[i+len("/.claude/hooks/"):])[0]] = c
				}
			}
		}
	}
	return dir, cmds
}

// runClaude runs a Claude command as Claude Code does: sh -c, the input on
// stdin, CLAUDE_PROJECT_DIR set.
func runClaude(t *testing.T, command, project string, stdin []byte) Run {
	t.Helper()
	cmd := exec.Command("sh", "-c", command)
	cmd.Env = append(os.Environ(), Env(project, "")...)
	cmd.Dir = project
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errb
	err := cmd.Run()
	r := Run{Stdout: out.Bytes(), Stderr: errb.Bytes(), Command: command}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Exit = ee.ExitCode()
	case err != nil:
		r.Failed, r.Reason = true, err.Error()
	}
	return r
}

// TestCorpus fires each hook of the corpus with a Hermes payload through
// the dialect and checks the Hermes answer is the decision Claude Code
// makes of the hook's output (written beside each case).
func TestCorpus(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the corpus hooks are python3 and sh scripts; python3 is missing")
	}
	project, cmds := corpusProject(t)
	txt := filepath.Join(project, "notes.txt")
	if err := os.WriteFile(txt, []byte("a  \nb\t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return string(pyjson.Marshal(s, pyjson.Options{})) }
	for _, tc := range []struct {
		name, script, event, tool, args, extra string
		failClosed                             bool
		rule                                   string
		want                                   string // the Hermes answer; "" = nothing
	}{
		// Claude: permissionDecision deny → the call is blocked with the reason.
		{"deny rm -rf", "block_rm.py", "pre_tool_call", "terminal", `{"command": "rm -rf build"}`, "", false, "",
			`{"action": "block", "message": "rm -rf is not allowed in this repository"}`},
		{"allow ls", "block_rm.py", "pre_tool_call", "terminal", `{"command": "ls -la"}`, "", false, "", ""},
		// Claude: exit 2 → blocked, stderr to the model.
		{"exit 2 force push", "no_force_push.sh", "pre_tool_call", "terminal", `{"command": "git push --force origin main"}`, "", false, "",
			`{"action": "block", "message": "Force pushes are blocked by policy; push without --force."}`},
		{"plain push", "no_force_push.sh", "pre_tool_call", "terminal", `{"command": "git push origin main"}`, "", false, "", ""},
		// Claude: exit 2 on a .env write (file_path) → blocked.
		{".env write", "protect_env.py", "pre_tool_call", "write_file", `{"path": ` + q(filepath.Join(project, ".env")) + `, "content": "K=1"}`, "", false, "",
			`{"action": "block", "message": "Refusing to modify ` + filepath.Join(project, ".env") + `: secrets live in .env files"}`},
		{".env.local patch", "protect_env.py", "pre_tool_call", "patch", `{"path": ".env.local", "old_string": "a", "new_string": "b"}`, "", false, "",
			`{"action": "block", "message": "Refusing to modify ` + filepath.Join(physical(project), ".env.local") + `: secrets live in .env files"}`},
		{"source write", "protect_env.py", "pre_tool_call", "write_file", `{"path": "src/app.py", "content": ""}`, "", false, "", ""},
		// Claude: updatedInput → the call runs rewritten.
		{"rewrite pip", "use_uv.py", "pre_tool_call", "terminal", `{"command": "pip install requests"}`, "", false, "",
			`{"action": "modify", "args": {"command": "uv pip install requests"}}`},
		// Claude: if "Bash(git *)" → runs for git only, and denies.
		{"if git", "git_frozen.sh", "pre_tool_call", "terminal", `{"command": "git commit -m x"}`, "", false, "Bash(git *)",
			`{"action": "block", "message": "git is frozen during the release"}`},
		{"if not git", "git_frozen.sh", "pre_tool_call", "terminal", `{"command": "make"}`, "", false, "Bash(git *)", ""},
		// Claude 2.1.295: onFailure block → the crash blocks.
		{"crash fail closed", "audit_strict.py", "pre_tool_call", "terminal", `{"command": "ls"}`, "", true, "",
			`{"action": "block", "message": "hook CMD failed closed: exit status 1"}`},
		{"crash fail open", "audit_strict.py", "pre_tool_call", "terminal", `{"command": "ls"}`, "", false, "", ""},
		// Claude: deny outside $CLAUDE_PROJECT_DIR.
		{"outside project", "stay_in_project.sh", "pre_tool_call", "write_file", `{"path": "/etc/hosts", "content": ""}`, "", false, "",
			`{"action": "block", "message": "/etc/hosts is outside the project"}`},
		// Claude Code sends absolute paths; the agent's relative one is
		// made absolute against the cwd, so it is inside.
		{"relative inside project", "stay_in_project.sh", "pre_tool_call", "write_file", `{"path": "README.md", "content": ""}`, "", false, "", ""},
		{"relative escape", "stay_in_project.sh", "pre_tool_call", "write_file", `{"path": "../x", "content": ""}`, "", false, "",
			`{"action": "block", "message": "` + filepath.Join(physical(project), "../x") + ` is outside the project"}`},
		{"inside project", "stay_in_project.sh", "pre_tool_call", "write_file", `{"path": ` + q(filepath.Join(project, "a.txt")) + `, "content": ""}`, "", false, "", ""},
		// Claude: PostToolUse formatter, stdout only in the transcript.
		{"formatter", "format.py", "post_tool_call", "write_file", `{"path": ` + q(txt) + `, "content": "a  "}`, `{"result": "{\"success\": true}"}`, false, "", ""},
		// Claude: plain stdout of UserPromptSubmit → context.
		{"prompt context", "prompt_context.sh", "pre_llm_call", "", "", `{"user_message": "fix the bug"}`, false, "",
			`{"context": "Project conventions: tabs, not spaces. (prompt was: fix the bug)"}`},
		// Claude: SessionStart additionalContext → context.
		{"session start", "session_start.py", "on_session_start", "", "", `{"model": "m"}`, false, "",
			`{"context": "Release branch: main. Run make test before committing."}`},
		// Claude: Stop decision block → keeps going with the reason; once.
		{"stop asks for tests", "require_tests.py", "pre_verify", "", "", `{"attempt": 1, "final_response": "done"}`, false, "",
			`{"action": "continue", "message": "Run the test suite (make test) before you finish."}`},
		{"stop second time", "require_tests.py", "pre_verify", "", "", `{"attempt": 2, "final_response": "done"}`, false, "", ""},
		// A bash + jq guard.
		{"jq sudo", "jq:jq_no_sudo.sh", "pre_tool_call", "terminal", `{"command": "sudo rm x"}`, "", false, "",
			`{"action": "block", "message": "sudo is not allowed: sudo rm x"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			command := cmds[tc.script]
			if rest, ok := strings.CutPrefix(tc.script, "jq:"); ok {
				if _, err := exec.LookPath("jq"); err != nil {
					t.Skip("jq is not installed")
				}
				command = `"$CLAUDE_PROJECT_DIR"/.claude/hooks/` + rest
			}
			if command == "" {
				t.Fatalf("no hook runs %s in the corpus settings", tc.script)
			}
			payload := strings.Replace(string(wire(tc.event, tc.tool, tc.args, tc.extra)), `"cwd": "/proj/sub"`, `"cwd": `+q(project), 1)
			c, stdin, err := Input(tc.event, []byte(payload))
			if err != nil {
				t.Fatal(err)
			}
			if tc.rule != "" {
				r, err := ParseRule(tc.rule)
				if err != nil {
					t.Fatal(err)
				}
				if !r.Match(c, project, "") {
					if tc.want != "" {
						t.Fatalf("rule %s does not match", tc.rule)
					}
					return // Claude Code does not run it; the guard answers nothing
				}
			}
			run := runClaude(t, command, project, stdin)
			run.FailClosed = tc.failClosed
			rep := Answer(c, run)
			qc := string(pyjson.Marshal(command, pyjson.Options{}))
			want := strings.ReplaceAll(tc.want, "CMD", qc[1:len(qc)-1])
			if got := strings.TrimSpace(string(rep.Stdout)); got != want {
				t.Errorf("answer %s\nwant   %s\n(hook exit %d, stdout %q, stderr %q)", got, want, run.Exit, run.Stdout, run.Stderr)
			}
		})
	}
	data, _ := os.ReadFile(txt)
	if string(data) != "a\nb\n" {
		t.Errorf("the formatter did not format %s (it read tool_input.file_path): %q", txt, data)
	}
}
