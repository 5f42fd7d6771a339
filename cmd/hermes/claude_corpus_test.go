package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// claudeLab is a home with the corpus project of testdata/claude-hooks
// imported (protected, in the Claude Code dialect) and approved, with the
// real hermes and hermes-guard side by side.
type claudeLab struct {
	t                     *testing.T
	hermes, root, app, hh string
	env                   []string
	wrapped               map[string]string // script name → the command written
}

func newClaudeLab(t *testing.T) *claudeLab {
	t.Helper()
	needAgentPython(t)
	hermes := buildHermes(t)
	buildGuardBeside(t, hermes)
	root := t.TempDir()
	os.Chmod(root, 0o755)
	l := &claudeLab{t: t, hermes: hermes, root: root, app: filepath.Join(root, "app"), hh: filepath.Join(root, "home", ".hermes")}
	if err := os.MkdirAll(l.hh, 0o700); err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Abs("../../testdata/claude-hooks/project")
	if out, err := exec.Command("cp", "-a", src, l.app).CombinedOutput(); err != nil {
		t.Fatalf("copying the corpus: %v\n%s", err, out)
	}
	l.env = []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + filepath.Join(root, "home"), "HERMES_HOME=" + l.hh, "LC_ALL=C.UTF-8"}
	var imp struct {
		Imported []struct {
			Command       string `json:"command"`
			ClaudeCommand string `json:"claude_command"`
		}
		Skipped []struct{ Command *string }
	}
	l.json(l.app, &imp, "hooks", "import", "claude", "--json")
	l.wrapped = map[string]string{}
	for _, e := range imp.Imported {
		_, script, _ := strings.Cut(e.ClaudeCommand, "/.claude/hooks/")
		l.wrapped[strings.Fields(script)[0]] = e.Command
	}
	if len(imp.Imported) != 11 || len(imp.Skipped) != 1 || imp.Skipped[0].Command == nil || *imp.Skipped[0].Command != "notify-send 'Claude needs you'" {
		t.Fatalf("import: %d imported (%v), skipped %+v", len(imp.Imported), l.wrapped, imp.Skipped)
	}
	l.run(l.app, "hooks", "accept", "--all", "--yes")
	return l
}

// buildGuardBeside builds hermes-guard next to the hermes binary, where
// import and protect look for it.
func buildGuardBeside(t testing.TB, hermes string) {
	t.Helper()
	guardBuild.linkInto(t, filepath.Dir(hermes))
}

func (l *claudeLab) command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(l.hermes, args...)
	cmd.Env, cmd.Dir = l.env, dir
	return cmd
}

func (l *claudeLab) run(dir string, args ...string) []byte {
	l.t.Helper()
	var stderr bytes.Buffer
	cmd := l.command(dir, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("hermes %s: %v\n%s\n%s", strings.Join(args, " "), err, out, &stderr)
	}
	return out
}

func (l *claudeLab) json(dir string, v any, args ...string) {
	l.t.Helper()
	out := l.run(dir, args...)
	if err := json.Unmarshal(out, v); err != nil {
		l.t.Fatalf("hermes %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// agent runs the wrapped command as the agent does (the guard's proof
// runner: Popen, own process group, communicate) and returns its answer.
func (l *claudeLab) agent(script, event, wire string) string {
	l.t.Helper()
	argv, err := shell.Split(l.wrapped[script])
	if err != nil {
		l.t.Fatal(err)
	}
	req, _ := json.Marshal(map[string]any{"argv": argv, "payload": wire, "timeout": 30, "event": event})
	runner, _ := filepath.Abs("../hermes-guard/testdata/agent_runner.py")
	// The agent's Python, found on the agent's PATH: a version manager's
	// shim on ours would put its own folder first on the PATH the hooks
	// inherit, and a hook's code is found on that PATH (SPEC §23).
	cmd := exec.Command(agentPython(l.t, l.env), runner)
	cmd.Env, cmd.Dir, cmd.Stdin = l.env, l.root, bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("agent runner: %v\n%s", err, &stderr)
	}
	var r struct {
		ReturnCode int `json:"returncode"`
		Stderr     string
		Answer     json.RawMessage
	}
	if err := json.Unmarshal(out, &r); err != nil {
		l.t.Fatal(err)
	}
	var a any
	json.Unmarshal(r.Answer, &a)
	b, _ := json.Marshal(a)
	if string(b) == "null" {
		return ""
	}
	return string(b)
}

// TestClaudeCorpusAfterImport is SPEC §19's proof: the corpus of Claude
// Code hooks, imported and approved, gives with Hermes payloads the
// decision it gives in Claude Code — under run-event, and in the agent's
// own runs of it (through the guard).
func TestClaudeCorpusAfterImport(t *testing.T) {
	l := newClaudeLab(t)
	env := filepath.Join(l.app, ".env")
	up, _ := filepath.EvalSymlinks(filepath.Dir(l.app))
	outside := filepath.Join(up, "outside.txt")
	for _, tc := range []struct {
		name, script, event, fields string
		outcome                     string // run-event's outcome, the keys that matter
		agent                       string // the agent runner's answer
	}{
		{"deny rm -rf", "block_rm.py", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "rm -rf build"}}`,
			`"action":"block","message":"rm -rf is not allowed in this repository"`, `{"action":"block","message":"rm -rf is not allowed in this repository"}`},
		{"allow ls", "block_rm.py", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "ls"}}`, `"action":"allow"`, ``},
		{"exit 2", "no_force_push.sh", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "git push --force"}}`,
			`"action":"block","message":"Force pushes are blocked by policy; push without --force."`, `{"action":"block","message":"Force pushes are blocked by policy; push without --force."}`},
		{".env write", "protect_env.py", "pre_tool_call", `{"tool_name": "write_file", "args": {"path": "` + env + `", "content": "K=1"}}`,
			`"action":"block","message":"Refusing to modify ` + env + `: secrets live in .env files"`, `{"action":"block","message":"Refusing to modify ` + env + `: secrets live in .env files"}`},
		{"rewrite", "use_uv.py", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "pip install requests"}}`,
			`"action":"allow","args":{"command":"uv pip install requests"}`, `{"action":"modify","args":{"command":"uv pip install requests"}}`},
		{"if git", "git_frozen.sh", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "git status"}}`,
			`"action":"block","message":"git is frozen during the release"`, `{"action":"block","message":"git is frozen during the release"}`},
		{"if not git", "git_frozen.sh", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "make"}}`, `"action":"allow"`, ``},
		{"crash blocks", "audit_strict.py", "pre_tool_call", `{"tool_name": "terminal", "args": {"command": "ls"}}`,
			`"action":"block","message":"hook \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/audit_strict.py failed closed: exit status 1"`, `{"action":"block","message":"hook \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/audit_strict.py failed closed: exit status 1"}`},
		{"outside the project dir", "stay_in_project.sh", "pre_tool_call", `{"tool_name": "write_file", "args": {"path": "/etc/hosts", "content": ""}}`,
			`"action":"block","message":"/etc/hosts is outside the project"`, `{"action":"block","message":"/etc/hosts is outside the project"}`},
		// The agent's relative path is made absolute against the payload's
		// cwd, as Claude Code sends it: inside, or out with ../.
		{"relative path inside", "stay_in_project.sh", "pre_tool_call", `{"tool_name": "write_file", "args": {"path": "README.md", "content": ""}}`, `"action":"allow"`, ``},
		{"relative path out", "stay_in_project.sh", "pre_tool_call", `{"tool_name": "write_file", "args": {"path": "../outside.txt", "content": ""}}`,
			`"action":"block","message":"` + outside + ` is outside the project"`, `{"action":"block","message":"` + outside + ` is outside the project"}`},
		{"prompt context", "prompt_context.sh", "pre_llm_call", `{"user_message": "fix it"}`,
			`"context":"Project conventions: tabs, not spaces. (prompt was: fix it)"`, `{"context":"Project conventions: tabs, not spaces. (prompt was: fix it)"}`},
		{"session start", "session_start.py", "on_session_start", `{"model": "m"}`, ``,
			`{"context":"Release branch: main. Run make test before committing."}`},
		{"stop", "require_tests.py", "pre_verify", `{"attempt": 1, "final_response": "done"}`,
			`"action":"continue","message":"Run the test suite (make test) before you finish."`, `{"action":"continue","message":"Run the test suite (make test) before you finish."}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := l.t
			l.t = t
			defer func() { l.t = parent }()
			claudeCmd := `"$CLAUDE_PROJECT_DIR"/.claude/hooks/` + tc.script
			if tc.script == "stay_in_project.sh" {
				claudeCmd = `"${CLAUDE_PROJECT_DIR}"/.claude/hooks/` + tc.script
			}
			if tc.script == "use_uv.py" {
				claudeCmd = `python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/use_uv.py`
			}
			if tc.outcome != "" {
				var doc struct {
					Hooks   []struct{ Status string }
					Outcome json.RawMessage
				}
				l.json(l.app, &doc, "hooks", "run-event", tc.event, "--payload", tc.fields, "--only", claudeCmd, "--json")
				var got, want map[string]any
				json.Unmarshal(doc.Outcome, &got)
				if err := json.Unmarshal([]byte("{"+tc.outcome+"}"), &want); err != nil {
					t.Fatal(err)
				}
				fired := 0
				for _, h := range doc.Hooks {
					if h.Status == "fired" {
						fired++
					}
				}
				for k, v := range want {
					a, _ := json.Marshal(got[k])
					b, _ := json.Marshal(v)
					if string(a) != string(b) || fired != 1 {
						t.Errorf("run-event: %d fired, outcome %s = %s, want %s", fired, k, a, b)
					}
				}
			}
			var fields map[string]any
			json.Unmarshal([]byte(tc.fields), &fields)
			wire := map[string]any{"hook_event_name": tc.event, "tool_name": fields["tool_name"], "tool_input": fields["args"],
				"session_id": "s", "cwd": l.app, "profile": "default", "extra": fields}
			delete(fields, "tool_name")
			delete(fields, "args")
			w, _ := json.Marshal(wire)
			if got := l.agent(tc.script, tc.event, string(w)); got != tc.agent {
				t.Errorf("the agent's run through the guard: %s, want %s", got, tc.agent)
			}
		})
	}

	// The canary starter set against the corpus (SPEC §26's proof).
	t.Run("canaries", func(t *testing.T) {
		parent := l.t
		l.t = t
		defer func() { l.t = parent }()
		canariesAgainstTheClaudeCorpus(t, l)
	})

	// Outside the project the project's hooks answer nothing, and the
	// guard's audit line says why.
	w := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}, "session_id": "s", "cwd": "/tmp", "profile": "default", "extra": {}}`
	if got := l.agent("block_rm.py", "pre_tool_call", w); got != "" {
		t.Errorf("outside the project: %s, want nothing", got)
	}
	log, _ := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, `"status":"skipped"`) || !strings.Contains(last, `"refusal":"outside project"`) {
		t.Errorf("the audit line of a run outside the project: %s", last)
	}
	// An edited script is refused: the pinned file is the script under
	// $CLAUDE_PROJECT_DIR.
	script := filepath.Join(l.app, ".claude", "hooks", "block_rm.py")
	f, _ := os.OpenFile(script, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n# edited\n")
	f.Close()
	w = strings.Replace(w, `"cwd": "/tmp"`, `"cwd": "`+l.app+`"`, 1)
	if got := l.agent("block_rm.py", "pre_tool_call", w); got != "" {
		t.Errorf("an edited script ran through the guard: %s", got)
	}
	out, _ := l.command(l.app, "hooks", "diff", `"$CLAUDE_PROJECT_DIR"/.claude/hooks/block_rm.py`).Output()
	if !strings.Contains(string(out), "+# edited") {
		t.Errorf("diff does not show the edit of the pinned script:\n%s", out)
	}
}

// agentPython is python3 as the agent's environment env finds it.
func agentPython(t testing.TB, env []string) string {
	t.Helper()
	for _, kv := range env {
		if path, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(path) {
				if p := filepath.Join(dir, "python3"); exec.Command(p, "-c", "").Run() == nil {
					return p
				}
			}
		}
	}
	t.Skip("no python3 on the agent's PATH")
	return ""
}
