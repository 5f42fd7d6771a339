package scan

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// checkoutOf writes files (path → text; a path ending in "*" is written
// executable, without the star) into a new checkout and scans it.
func checkoutOf(t *testing.T, files map[string]string) *Result {
	t.Helper()
	dir := t.TempDir()
	for p, text := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, "*") {
			p, mode = strings.TrimSuffix(p, "*"), 0o755
		}
		writeFile(t, filepath.Join(dir, p), text, mode)
	}
	return mustScan(t, dir)
}

// hookList renders hooks as "agent|file:line|event|matcher|command" for
// comparison.
func hookList(r *Result) []string {
	var out []string
	for _, h := range r.Hooks {
		m := "-"
		if h.Matcher != nil {
			m = *h.Matcher
		}
		out = append(out, strings.Join([]string{h.Agent, h.File + ":" + strconv.Itoa(h.Line), h.Event, m, h.Command}, "|"))
	}
	return out
}

// ignored lists the whole-file findings as "agent file:line: message".
func ignored(r *Result) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Kind == KindIgnoredFile {
			out = append(out, f.File+":"+strconv.Itoa(f.Line)+": "+f.Message)
		}
	}
	return out
}

func wantHooks(t *testing.T, r *Result, want ...string) {
	t.Helper()
	got := hookList(r)
	if !slices.Equal(got, want) {
		t.Errorf("hooks:\n got %q\nwant %q", got, want)
	}
}

func wantIgnored(t *testing.T, r *Result, want ...string) {
	t.Helper()
	got := ignored(r)
	if len(got) != len(want) {
		t.Fatalf("whole-file findings:\n got %q\nwant %d containing %q", got, len(want), want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("finding %d: got %q, want it to contain %q", i, got[i], want[i])
		}
	}
}

func TestHermesReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		"config.yaml": "hooks:\n  pre_tool_call:\n    - command: ${HOME}/guard.sh\n      matcher: terminal\n    - matcher: x\n" +
			"  outbound:\n    - url: https://example.invalid\n  on_session_start:\n    - command: \"  python3 s.py  \"\n",
		"hooks/a/HOOK.yaml":  "name: a\nevents: [agent:start, session:end]\n",
		"hooks/a/handler.py": "def handle(e, c): pass\n",
		"hooks/b/HOOK.yaml":  "events: agent:end\nenabled: false\n",
	})
	wantHooks(t, r,
		"Hermes|config.yaml:3|pre_tool_call|terminal|${HOME}/guard.sh",
		"Hermes|config.yaml:9|on_session_start|-|python3 s.py",
		"Hermes|hooks/a/HOOK.yaml:2|agent:start|-|python3 hooks/a/handler.py",
		"Hermes|hooks/a/HOOK.yaml:2|session:end|-|python3 hooks/a/handler.py")
	wantIgnored(t, r)
	if got := r.Hooks[2].Code; len(got) != 2 || got[0].Path != "hooks/a/HOOK.yaml" || got[1].Path != "hooks/a/handler.py" || got[1].SHA256 == "" {
		t.Errorf("a gateway hook's code is every file of its folder, pinned: %+v", got)
	}

	bad := checkoutOf(t, map[string]string{"config.yaml": "hooks:\n  pre_tool_call: [\n"})
	wantIgnored(t, bad, "Hermes ignores this whole file")
}

func TestClaudeReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		".claude/settings.json": `{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
  {"type": "command", "command": "npx prettier --write ."},
  {"type": "prompt", "prompt": "check"}]}]}}`,
		".claude/settings.local.json": `{"permissions": {}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "make lint"}]}]}}`,
	})
	wantHooks(t, r,
		"Claude Code|.claude/settings.json:2|PostToolUse|Edit|Write|npx prettier --write .",
		"Claude Code|.claude/settings.local.json:1|Stop|-|make lint")
	wantIgnored(t, r)

	// A handler written without its matcher group: Claude Code rejects the
	// file's schema and skips the whole file (anthropics/claude-code#49990).
	bare := checkoutOf(t, map[string]string{
		".claude/settings.json": `{"hooks": {"PreToolUse": [{"type": "command", "command": "echo hi"}],
"Stop": [{"hooks": [{"type": "command", "command": "make lint"}]}]}}`,
	})
	wantIgnored(t, bare, `hooks.PreToolUse[0] has no "hooks" array`)
	wantHooks(t, bare, "Claude Code|.claude/settings.json:2|Stop|-|make lint")
	if h := bare.Hooks[0]; h.Findings[0] != KindIgnoredFile {
		t.Errorf("a hook in a file the agent drops carries the finding: %v", h.Findings)
	}

	broken := checkoutOf(t, map[string]string{".claude/settings.json": "{\n \"hooks\": {\n}\n}\n}"})
	wantIgnored(t, broken, ".claude/settings.json:5: Claude Code ignores this whole file: not valid JSON")
}

func TestCodexReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		".codex/hooks.json": `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "python3 .codex/s.py"}]}]}}`,
		".codex/config.toml": "model = \"x\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\n" +
			"type = \"command\"\ncommand = \"./guard.sh\"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ncommand = \"make test\"\n",
	})
	wantHooks(t, r,
		"Codex|.codex/hooks.json:1|SessionStart|startup|python3 .codex/s.py",
		"Codex|.codex/config.toml:7|PreToolUse|Bash|./guard.sh",
		"Codex|.codex/config.toml:11|Stop|-|make test")
	wantIgnored(t, r)

	bad := checkoutOf(t, map[string]string{".codex/config.toml": "[hooks\ncommand = 1\n"})
	wantIgnored(t, bad, ".codex/config.toml:1: Codex ignores this whole file: not valid TOML")
	wrong := checkoutOf(t, map[string]string{".codex/hooks.json": `{"hooks": {"Stop": {"hooks": []}}}`})
	wantIgnored(t, wrong, `event "Stop" is an object, not an array`)
}

func TestCursorReader(t *testing.T) {
	good := checkoutOf(t, map[string]string{".cursor/hooks.json": `{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [{"command": "./audit.sh", "matcher": "rm"}],
    "stop": [{"type": "prompt", "prompt": "done?"}]
  }
}`})
	wantHooks(t, good, "Cursor|.cursor/hooks.json:4|beforeShellExecution|rm|./audit.sh")
	wantIgnored(t, good)

	// One unknown event name: Cursor loads none of the file's hooks.
	typo := checkoutOf(t, map[string]string{".cursor/hooks.json": `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{"command": "./fmt.sh"}],
    "beforeShellExec": [{"command": "./audit.sh"}]
  }
}`})
	wantIgnored(t, typo, `.cursor/hooks.json:5: Cursor ignores this whole file: unknown event "beforeShellExec" (did you mean "beforeShellExecution"?)`)
	for _, h := range typo.Hooks {
		if !slices.Contains(h.Findings, KindIgnoredFile) {
			t.Errorf("%s: the sibling hook is dropped too: %v", h.Command, h.Findings)
		}
	}

	noVersion := checkoutOf(t, map[string]string{".cursor/hooks.json": `{"version": "1", "hooks": {}}`})
	wantIgnored(t, noVersion, `"version" is a string, not a number`)
}

func TestAntigravityReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{".agents/hooks.json": `{
  "audit": {
    "pretooluse": [{"matcher": "run_command", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 5}]}],
    "Stop": [{"command": "make lint"}, {"type": "prompt", "prompt": "Times are UTC."}],
    "SessionEnd": [{"command": "never-fires"}]
  },
  "off": {"enabled": false, "SessionStart": [{"command": "./off.sh"}]}
}`})
	wantHooks(t, r,
		"Antigravity|.agents/hooks.json:3|pretooluse|run_command|./audit.sh",
		"Antigravity|.agents/hooks.json:4|Stop|-|make lint")
	wantIgnored(t, r)

	for name, tc := range map[string]struct{ file, want string }{
		"trailing comma": {"{\n  \"a\": {\"Stop\": [{\"command\": \"x\"}],}\n}", ".agents/hooks.json:2: Antigravity ignores this whole file: not valid JSON: a trailing comma"},
		"comment":        {"{\n// note\n\"a\": {}}", "not valid JSON"},
		"top enabled":    {`{"enabled": false, "a": {"Stop": [{"command": "x"}]}}`, `"enabled" at the top level`},
		"float timeout":  {`{"a": {"Stop": [{"command": "x", "timeout": 1.5}]}}`, "timeout is 1.5"},
		"type case":      {`{"a": {"Stop": [{"type": "COMMAND", "command": "x"}]}}`, `type is "COMMAND"`},
		"prompt+command": {`{"a": {"Stop": [{"type": "prompt", "prompt": "p", "command": "x"}]}}`, `prompt hook with a "command"`},
		"event object":   {`{"a": {"Stop": {"command": "x"}}}`, `event "Stop" is an object`},
	} {
		t.Run(name, func(t *testing.T) {
			wantIgnored(t, checkoutOf(t, map[string]string{".agents/hooks.json": tc.file}), tc.want)
		})
	}
	legacy := checkoutOf(t, map[string]string{".agent/hooks.json": `{"a": {"SessionStart": [{"command": "./s.sh"}]}}`})
	wantHooks(t, legacy, "Antigravity|.agent/hooks.json:1|SessionStart|-|./s.sh")
}

func TestGeminiReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{".gemini/settings.json": `{
  /* comments are fine here */
  "hooks": {
    "enabled": true, // a switch, not an event
    "SessionStart": [{"hooks": [{"type": "command", "command": "./start.sh", "name": "s"}]}]
  }
}`})
	wantHooks(t, r, "Gemini CLI|.gemini/settings.json:5|SessionStart|-|./start.sh")
	wantIgnored(t, r)
	wantIgnored(t, checkoutOf(t, map[string]string{".gemini/settings.json": `{"hooks": `}), "Gemini CLI ignores this whole file: not valid JSON: unexpected end of file")
}

func TestCopilotReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		".github/hooks/a.json": `{"version": 1, "hooks": {"preToolUse": [
  {"type": "command", "bash": "./check.sh", "powershell": "./check.ps1", "cwd": "tools"},
  {"type": "command", "powershell": "./only-windows.ps1"}]}}`,
		".github/hooks/b.json":  `{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}`,
		".github/hooks/c.json":  `not json`,
		".github/hooks/note.md": `not a hook file`,
	})
	wantHooks(t, r,
		"Copilot|.github/hooks/a.json:2|preToolUse|-|./check.sh",
		"Copilot|.github/hooks/b.json:1|sessionStart|-|echo hi")
	wantIgnored(t, r, ".github/hooks/c.json:1: Copilot ignores this whole file")
	if r.Hooks[0].Code[0].Path != "tools/check.sh" {
		t.Errorf("cwd decides where ./check.sh is: %+v", r.Hooks[0].Code)
	}
}

func TestClineReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		".clinerules/hooks/PreToolUse*":   "#!/bin/sh\n",
		".clinerules/hooks/TaskStart":     "#!/bin/sh\n", // not executable: never runs
		".clinerules/hooks/Unknown*":      "#!/bin/sh\n", // named after no event
		".clinerules/hooks/TaskComplete*": "#!/bin/sh\n",
	})
	wantHooks(t, r,
		"Cline|.clinerules/hooks/TaskComplete:0|TaskComplete|-|./.clinerules/hooks/TaskComplete",
		"Cline|.clinerules/hooks/PreToolUse:0|PreToolUse|-|./.clinerules/hooks/PreToolUse")
}

func TestKiroReader(t *testing.T) {
	r := checkoutOf(t, map[string]string{
		".kiro/hooks/a.kiro.hook":      `{"enabled": true, "name": "a", "when": {"type": "fileEdited"}, "then": {"type": "runCommand", "command": "npm run lint"}}`,
		".kiro/hooks/b.kiro.hook":      `{"enabled": true, "when": {"type": "agentStop"}, "then": {"type": "askAgent", "prompt": "review"}}`,
		".kiro/hooks/c.kiro.hook":      `{"enabled": false, "when": {"type": "agentStop"}, "then": {"type": "runCommand", "command": "off"}}`,
		".kiro/hooks/cli.json":         `{"version": "v1", "hooks": [{"trigger": "PreToolUse", "matcher": "fs_write", "action": {"type": "command", "command": "./g.sh"}}]}`,
		".kiro/hooks/broken.kiro.hook": `{"when": `,
	})
	wantHooks(t, r,
		"Kiro|.kiro/hooks/a.kiro.hook:1|fileEdited|-|npm run lint",
		"Kiro|.kiro/hooks/cli.json:1|PreToolUse|fs_write|./g.sh")
	wantIgnored(t, r, ".kiro/hooks/broken.kiro.hook:1: Kiro ignores this whole file")
}

func TestGitReader(t *testing.T) {
	home := t.TempDir()
	r := checkoutOf(t, map[string]string{
		".git/config": "[core]\n\tfsmonitor = true\n[core]\n\thooksPath = \"" + home + "/hooks\" # shared\n" +
			"[remote \"origin\"]\n\tfsmonitor = ./not-core.sh\n",
		".githooks/pre-commit*": "#!/bin/sh\n",
		".githooks/pre-push":    "#!/bin/sh\n", // not executable: git skips it
		".husky/pre-commit":     "npm test\n",  // husky runs it with sh
		".husky/_/husky.sh":     "# husky's own\n",
	})
	wantHooks(t, r,
		"git|.git/config:4|core.hooksPath|-|"+home+"/hooks/",
		"git|.githooks/pre-commit:0|pre-commit|-|./.githooks/pre-commit",
		"git|.husky/pre-commit:0|pre-commit|-|sh ./.husky/pre-commit")
	if !slices.Contains(r.Hooks[0].Findings, KindOutside) {
		t.Errorf("a hooksPath outside the checkout runs code from outside it: %v", r.Hooks[0].Findings)
	}

	fsmon := checkoutOf(t, map[string]string{".git/config": "[core]\n\tFSMonitor = ./watch.sh\n", "watch.sh*": "#!/bin/sh\n"})
	wantHooks(t, fsmon, "git|.git/config:2|core.fsmonitor|-|./watch.sh")
	if !slices.Contains(fsmon.Hooks[0].Findings, KindSessionStart) {
		t.Errorf("fsmonitor runs on every git status: %v", fsmon.Hooks[0].Findings)
	}
}

func TestGitWorktreeConfig(t *testing.T) {
	gitDir := t.TempDir()
	writeFile(t, filepath.Join(gitDir, "config"), "[core]\n\tfsmonitor = ./w.sh\n", 0o644)
	writeFile(t, filepath.Join(gitDir, "worktrees", "x", "commondir"), "../..\n", 0o644)
	r := checkoutOf(t, map[string]string{".git": "gitdir: " + filepath.Join(gitDir, "worktrees", "x") + "\n"})
	if len(r.Hooks) != 1 || r.Hooks[0].Event != "core.fsmonitor" || r.Hooks[0].File != filepath.Join(gitDir, "config") {
		t.Errorf("a worktree's shared config is read: %v", hookList(r))
	}
}
