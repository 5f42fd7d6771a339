package claude

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func wire(event, tool, args, extra string) []byte {
	if args == "" {
		args = "null"
	}
	if extra == "" {
		extra = "{}"
	}
	t := "null"
	if tool != "" {
		t = `"` + tool + `"`
	}
	return []byte(`{"hook_event_name": "` + event + `", "tool_name": ` + t + `, "tool_input": ` + args +
		`, "session_id": "s1", "cwd": "/proj/sub", "profile": "default", "extra": ` + extra + `}`)
}

func mustInput(t *testing.T, event string, payload []byte) (*Call, *pyjson.Object) {
	t.Helper()
	c, in, err := Input(event, payload)
	if err != nil {
		t.Fatal(err)
	}
	o, err := pyjson.DecodeObject(in)
	if err != nil {
		t.Fatalf("stdin is not an object: %v\n%s", err, in)
	}
	return c, o
}

func TestInputCommonFields(t *testing.T) {
	_, o := mustInput(t, "pre_tool_call", wire("pre_tool_call", "terminal", `{"command": "ls"}`, `{"tool_call_id": "c1"}`))
	want := `{"session_id": "s1", "transcript_path": null, "cwd": "/proj/sub", "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls", "description": ""}, "tool_use_id": "c1"}`
	if got := o.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestInputTools(t *testing.T) {
	for _, tc := range []struct {
		tool, args, claude, input string
	}{
		{"terminal", `{"command": "sleep 1", "timeout": 30, "background": true, "workdir": "/x"}`, "Bash",
			`{"command": "sleep 1", "timeout": 30000, "run_in_background": true, "workdir": "/x", "description": ""}`},
		{"read_file", `{"path": "a.py", "offset": 1, "limit": 10}`, "Read", `{"file_path": "/proj/sub/a.py", "offset": 1, "limit": 10}`},
		{"write_file", `{"path": ".env", "content": "X=1"}`, "Write", `{"file_path": "/proj/sub/.env", "content": "X=1"}`},
		{"patch", `{"path": "a.go", "old_string": "a", "new_string": "b"}`, "Edit", `{"file_path": "/proj/sub/a.go", "old_string": "a", "new_string": "b", "replace_all": false}`},
		{"patch", `{"mode": "replace", "path": "a.go", "old_string": "a", "new_string": "b", "replace_all": true}`, "Edit", `{"mode": "replace", "file_path": "/proj/sub/a.go", "old_string": "a", "new_string": "b", "replace_all": true}`},
		{"patch", `{"mode": "patch", "patch": "*** Begin Patch"}`, "patch", `{"mode": "patch", "patch": "*** Begin Patch"}`},
		{"search_files", `{"pattern": "*.py", "target": "files", "path": "src"}`, "Glob", `{"pattern": "*.py", "target": "files", "path": "/proj/sub/src"}`},
		{"search_files", `{"pattern": "TODO", "file_glob": "*.go", "output_mode": "files_only", "limit": 5, "context": 2}`, "Grep", `{"pattern": "TODO", "glob": "*.go", "output_mode": "files_with_matches", "head_limit": 5, "-C": 2}`},
		{"search_files", `{"pattern": "TODO"}`, "Grep", `{"pattern": "TODO", "output_mode": "content"}`},
		{"web_search", `{"query": "go"}`, "WebSearch", `{"query": "go"}`},
		{"web_extract", `{"urls": ["https://a.example"]}`, "WebFetch", `{"url": "https://a.example"}`},
		{"web_extract", `{"urls": ["https://a", "https://b"]}`, "web_extract", `{"urls": ["https://a", "https://b"]}`},
		{"delegate_task", `{"goal": "g"}`, "Task", `{"goal": "g"}`},
		{"todo_list", `{"todos": []}`, "TodoWrite", `{"todos": []}`},
		{"todo", `{"todos": []}`, "TodoWrite", `{"todos": []}`},
		{"clarify", `{"question": "q"}`, "AskUserQuestion", `{"question": "q"}`},
		{"skill_view", `{"name": "pdf"}`, "Skill", `{"skill": "pdf"}`},
		{"skill_view", `{"name": "pdf", "file_path": "x"}`, "skill_view", `{"name": "pdf", "file_path": "x"}`},
		{"execute_code", `{"code": "1"}`, "execute_code", `{"code": "1"}`},
		{"mcp_github_create_issue", `{"title": "t"}`, "mcp_github_create_issue", `{"title": "t"}`},
	} {
		_, o := mustInput(t, "pre_tool_call", wire("pre_tool_call", tc.tool, tc.args, ""))
		if n := o.Str("tool_name"); n != tc.claude {
			t.Errorf("%s %s: tool_name %s, want %s", tc.tool, tc.args, n, tc.claude)
		}
		in, _ := o.Value("tool_input").(*pyjson.Object)
		if got := in.String(); got != tc.input {
			t.Errorf("%s %s: tool_input\n got %s\nwant %s", tc.tool, tc.args, got, tc.input)
		}
	}
}

func TestInputEvents(t *testing.T) {
	for _, tc := range []struct {
		event, extra, key, want string
	}{
		{"post_tool_call", `{"result": "{\"ok\": true}"}`, "tool_response", `{"ok": true}`},
		{"post_tool_call", `{"result": "plain text"}`, "tool_response", `"plain text"`},
		{"pre_llm_call", `{"user_message": "fix it"}`, "prompt", `"fix it"`},
		{"on_session_start", `{}`, "source", `"startup"`},
		{"on_session_end", `{"turn_exit_reason": "final_response"}`, "reason", `"other"`},
		{"pre_verify", `{"attempt": 2, "final_response": "done"}`, "stop_hook_active", `true`},
		{"pre_verify", `{"attempt": 1}`, "stop_hook_active", `false`},
		{"subagent_start", `{"child_session_id": "c", "child_role": "researcher"}`, "agent_type", `"researcher"`},
		{"subagent_stop", `{"child_role": "r", "child_summary": "s"}`, "last_assistant_message", `"s"`},
	} {
		tool, args := "", ""
		if tc.event == "post_tool_call" {
			tool, args = "terminal", `{"command": "ls"}`
		}
		_, o := mustInput(t, tc.event, wire(tc.event, tool, args, tc.extra))
		v, ok := o.Get(tc.key)
		if !ok {
			t.Errorf("%s: no %s in %s", tc.event, tc.key, o)
			continue
		}
		if got := string(pyjson.Marshal(v, pyjson.Options{})); got != tc.want {
			t.Errorf("%s: %s = %s, want %s", tc.event, tc.key, got, tc.want)
		}
		if e := o.Str("hook_event_name"); e != ClaudeEvent(tc.event) {
			t.Errorf("%s: hook_event_name %s", tc.event, e)
		}
	}
	if _, _, err := Input("pre_api_request", wire("pre_api_request", "", "", "")); err == nil {
		t.Error("an event with no Claude counterpart must be an error")
	}
	if _, _, err := Input("pre_tool_call", []byte("[1]")); err == nil {
		t.Error("a payload that is not an object must be an error")
	}
}

func TestEventTable(t *testing.T) {
	for c, h := range map[string]string{"PreToolUse": "pre_tool_call", "PostToolUse": "post_tool_call",
		"UserPromptSubmit": "pre_llm_call", "SessionStart": "on_session_start", "SessionEnd": "on_session_end",
		"Stop": "pre_verify", "SubagentStart": "subagent_start", "SubagentStop": "subagent_stop"} {
		if HermesEvent(c) != h || ClaudeEvent(h) != c {
			t.Errorf("%s ↔ %s broken", c, h)
		}
	}
	for _, c := range []string{"Notification", "PreCompact", "PermissionRequest"} {
		if HermesEvent(c) != "" {
			t.Errorf("%s must have no counterpart", c)
		}
	}
}

func answer(t *testing.T, event, tool, args string, r Run) Reply {
	t.Helper()
	c, _, err := Input(event, wire(event, tool, args, ""))
	if err != nil {
		t.Fatal(err)
	}
	r.Command = "h.sh"
	return Answer(c, r)
}

func TestAnswer(t *testing.T) {
	const bash = `{"command": "rm -rf /", "timeout": 5}`
	for _, tc := range []struct {
		name, event, tool, args string
		r                       Run
		stdout                  string
		exit                    int
		warn                    string
	}{
		{"exit 2 blocks with stderr", "pre_tool_call", "terminal", bash, Run{Exit: 2, Stderr: []byte("no rm\n")}, `{"action": "block", "message": "no rm"}`, 2, ""},
		{"exit 2 without stderr", "pre_tool_call", "terminal", bash, Run{Exit: 2}, `{"action": "block", "message": "Blocked by shell hook."}`, 2, ""},
		{"deny", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "dangerous"}}`)}, `{"action": "block", "message": "dangerous"}`, 2, ""},
		{"ask", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"hookSpecificOutput": {"permissionDecision": "ask", "permissionDecisionReason": "sure?"}}`)}, `{"action": "approve", "message": "sure?"}`, 0, ""},
		{"allow", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"hookSpecificOutput": {"permissionDecision": "allow"}}`)}, ``, 0, ""},
		{"legacy block", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"decision": "block", "reason": "legacy"}`)}, `{"action": "block", "message": "legacy"}`, 2, ""},
		{"legacy approve", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"decision": "approve"}`)}, ``, 0, ""},
		{"continue false", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"continue": false, "stopReason": "halt"}`)}, `{"action": "block", "message": "halt"}`, 2, ""},
		{"json ignored on exit 1", "pre_tool_call", "terminal", bash, Run{Exit: 1, Stdout: []byte(`{"decision": "block"}`)}, ``, 1, ""},
		{"crash fails open", "pre_tool_call", "terminal", bash, Run{Exit: 127}, ``, 1, ""},
		{"crash onFailure block", "pre_tool_call", "terminal", bash, Run{Exit: 1, FailClosed: true}, `{"action": "block", "message": "hook h.sh failed closed: exit status 1"}`, 2, ""},
		{"spawn error onFailure block", "pre_tool_call", "terminal", bash, Run{Failed: true, Reason: "command not found", FailClosed: true}, `{"action": "block", "message": "hook h.sh failed closed: command not found"}`, 2, ""},
		{"killed fails open", "pre_tool_call", "terminal", bash, Run{Failed: true, Reason: "killed by a signal"}, ``, 1, ""},
		{"updatedInput", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"hookSpecificOutput": {"permissionDecision": "allow", "updatedInput": {"command": "rm -ri /", "timeout": 5500, "description": "x"}}}`)}, `{"action": "modify", "args": {"command": "rm -ri /", "timeout": 6}}`, 0, ""},
		{"updatedInput drops keys", "pre_tool_call", "write_file", `{"path": "a", "content": "b"}`, Run{Stdout: []byte(`{"hookSpecificOutput": {"updatedInput": {"file_path": "b"}}}`)}, `{"action": "modify", "args": {"path": "b"}}`, 0, "leaves out content"},
		{"updatedInput grep", "pre_tool_call", "search_files", `{"pattern": "x"}`, Run{Stdout: []byte(`{"hookSpecificOutput": {"updatedInput": {"pattern": "y", "output_mode": "files_with_matches", "glob": "*.go"}}}`)}, `{"action": "modify", "args": {"pattern": "y", "output_mode": "files_only", "file_glob": "*.go"}}`, 0, ""},
		{"updatedInput webfetch", "pre_tool_call", "web_extract", `{"urls": ["http://a"]}`, Run{Stdout: []byte(`{"hookSpecificOutput": {"updatedInput": {"url": "http://b"}}}`)}, `{"action": "modify", "args": {"urls": ["http://b"]}}`, 0, ""},
		{"ask with updatedInput", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"hookSpecificOutput": {"permissionDecision": "ask", "updatedInput": {"command": "x"}}}`)}, `{"action": "approve"}`, 0, "rewrite is ignored"},
		{"prompt context json", "pre_llm_call", "", "", Run{Stdout: []byte(`{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "branch main"}}`)}, `{"context": "branch main"}`, 0, ""},
		{"prompt context plain", "pre_llm_call", "", "", Run{Stdout: []byte("branch main\n")}, `{"context": "branch main"}`, 0, ""},
		{"prompt block inexpressible", "pre_llm_call", "", "", Run{Stdout: []byte(`{"decision": "block", "reason": "no"}`)}, ``, 0, "decision: block at UserPromptSubmit"},
		{"prompt exit 2 inexpressible", "pre_llm_call", "", "", Run{Exit: 2, Stderr: []byte("no")}, ``, 1, "blocking the prompt"},
		{"session start context", "on_session_start", "", "", Run{Stdout: []byte(`{"hookSpecificOutput": {"additionalContext": "ctx"}}`)}, `{"context": "ctx"}`, 0, ""},
		{"session start plain", "on_session_start", "", "", Run{Stdout: []byte("ctx")}, `{"context": "ctx"}`, 0, ""},
		{"stop block", "pre_verify", "", "", Run{Stdout: []byte(`{"decision": "block", "reason": "run the tests"}`)}, `{"action": "continue", "message": "run the tests"}`, 0, ""},
		{"stop exit 2", "pre_verify", "", "", Run{Exit: 2, Stderr: []byte("tests first")}, `{"action": "continue", "message": "tests first"}`, 0, ""},
		{"stop continue false", "pre_verify", "", "", Run{Stdout: []byte(`{"continue": false, "decision": "block", "reason": "x"}`)}, ``, 0, ""},
		{"post block inexpressible", "post_tool_call", "terminal", bash, Run{Stdout: []byte(`{"decision": "block", "reason": "bad"}`)}, ``, 0, "decision: block"},
		{"post exit 2 inexpressible", "post_tool_call", "terminal", bash, Run{Exit: 2, Stderr: []byte("fmt failed")}, ``, 1, "after the tool ran"},
		{"post plain stdout nothing", "post_tool_call", "terminal", bash, Run{Stdout: []byte("formatted 3 files")}, ``, 0, ""},
		{"pre plain stdout nothing", "pre_tool_call", "terminal", bash, Run{Stdout: []byte("hello")}, ``, 0, ""},
		{"system message", "pre_tool_call", "terminal", bash, Run{Stdout: []byte(`{"systemMessage": "careful"}`)}, ``, 0, "careful"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := answer(t, tc.event, tc.tool, tc.args, tc.r)
			if got := strings.TrimSpace(string(rep.Stdout)); got != tc.stdout {
				t.Errorf("stdout %s, want %s", got, tc.stdout)
			}
			if rep.Exit != tc.exit {
				t.Errorf("exit %d, want %d", rep.Exit, tc.exit)
			}
			w := strings.Join(rep.Warnings, "\n")
			if tc.warn != "" && !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q, want one with %q", w, tc.warn)
			}
			if tc.warn == "" && w != "" {
				t.Errorf("unexpected warnings %q", w)
			}
		})
	}
}

func TestTranslateMatcher(t *testing.T) {
	for _, tc := range []struct{ in, want, err, note string }{
		{"", "", "", ""},
		{"*", "", "", ""},
		{".*", "", "", ""},
		{"Bash", "terminal", "", ""},
		{"Edit|Write", "patch|write_file", "", "MultiEdit"},
		{"Edit, MultiEdit, Write", "patch|write_file", "", ""},
		{"Edit|MultiEdit", "patch", "", ""},
		{"Grep", "search_files", "", "Glob, LS"},
		{"TodoWrite", "todo_list|todo", "", ""},
		{"Task|Agent", "delegate_task", "", ""},
		{"Bash|NotebookEdit", "terminal", "", "NotebookEdit"},
		{"NotebookEdit", "", "no Hermes counterpart", ""},
		{"ExitPlanMode", "", "no Hermes counterpart", ""},
		{"Notebook.*", "read_file", "", "NotebookEdit"},
		{"^(Edit|Write)$", "write_file|patch", "", "regular expression"},
		{"Web", "", "no Hermes counterpart", ""},
		{"Web.*", "web_search|web_extract", "", ""},
		{"mcp__github__create_issue", "mcp_github_create_issue", "", ""},
		{"mcp__github__.*", "mcp_github_.*", "", ""},
		{"mcp__my-server__get", "mcp_my_server_get.*", "", ""},
		{"Bash|mcp__fs__.*", "terminal|mcp_fs_.*", "", ""},
		{"(?<=x)Bash", "", "cannot evaluate", ""},
		{"Nothing.*Here", "", "matches no Claude Code tool", ""},
		{"mcp.*(x|y)", "", "MCP", ""},
	} {
		m, err := TranslateMatcher(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want one with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if m.Pattern != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, m.Pattern, tc.want)
		}
		if n := strings.Join(m.Notes, "\n"); tc.note != "" && !strings.Contains(n, tc.note) {
			t.Errorf("%q: notes %q, want one with %q", tc.in, n, tc.note)
		}
	}
}

func TestSessionMatcherFires(t *testing.T) {
	for _, tc := range []struct {
		m, v      string
		fires, ok bool
	}{
		{"", "startup", true, true}, {"startup", "startup", true, true}, {"resume|compact", "startup", false, true},
		{"start.*", "startup", true, true}, {"(?<=a)", "startup", false, false}, {"startup, clear", "startup", true, true},
	} {
		f, ok := SessionMatcherFires(tc.m, tc.v)
		if f != tc.fires || ok != tc.ok {
			t.Errorf("%q on %q: %v %v, want %v %v", tc.m, tc.v, f, ok, tc.fires, tc.ok)
		}
	}
}

func TestRules(t *testing.T) {
	call := func(tool, args string) *Call {
		c, _, err := Input("pre_tool_call", wire("pre_tool_call", tool, args, ""))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		rule, tool, args string
		want             bool
	}{
		{"Bash(git *)", "terminal", `{"command": "git push"}`, true},
		{"Bash(git *)", "terminal", `{"command": "git"}`, true},
		{"Bash(git *)", "terminal", `{"command": "gitk"}`, false},
		{"Bash(git *)", "terminal", `{"command": "cd x && git push --force"}`, true},
		{"Bash(git *)", "terminal", `{"command": "ls"}`, false},
		{"Bash(git *)", "write_file", `{"path": "git x"}`, false},
		{"Bash(npm run test:*)", "terminal", `{"command": "npm run test -- -u"}`, true},
		{"Bash(npm run test:*)", "terminal", `{"command": "npm run build"}`, false},
		{"Bash", "terminal", `{"command": "x"}`, true},
		{"Bash()", "terminal", `{"command": "x"}`, true},
		{"Edit(*.env)", "write_file", `{"path": "/proj/sub/.env"}`, true},
		{"Edit(*.env)", "patch", `{"path": "config/prod.env", "old_string": "a", "new_string": "b"}`, true},
		{"Edit(*.env)", "write_file", `{"path": "/proj/env.txt"}`, false},
		{"Edit(*.env)", "read_file", `{"path": "/proj/.env"}`, false},
		{"Read(*.env)", "read_file", `{"path": "/proj/.env"}`, true},
		{"Edit(/src/**)", "write_file", `{"path": "/proj/src/a/b.go"}`, true},
		{"Edit(/src/**)", "write_file", `{"path": "/proj/lib/b.go"}`, false},
		{"Edit(//etc/*)", "write_file", `{"path": "/etc/passwd"}`, true},
		{"Edit(~/.ssh/**)", "write_file", `{"path": "/home/u/.ssh/id"}`, true},
		{"Edit(docs/*.md)", "write_file", `{"path": "docs/a.md"}`, true},
		{"Edit(docs/*.md)", "write_file", `{"path": "/proj/sub/docs/x/a.md"}`, false},
		// Edit alone is Edit(**): every tool that edits a file, a V4A
		// patch (which has no Claude Code name) included.
		{"Edit", "patch", `{"mode": "patch", "patch": "*** Begin Patch\n*** Add File: .env\n+X=1\n*** End Patch"}`, true},
		{"Edit(*)", "write_file", `{"path": "a"}`, true},
		{"Edit", "read_file", `{"path": "a"}`, false},
		{"Write", "patch", `{"mode": "patch", "patch": "*** Begin Patch\n*** Delete File: a\n*** End Patch"}`, true},
		{"Read", "patch", `{"mode": "patch", "patch": "*** Begin Patch\n*** Delete File: a\n*** End Patch"}`, false},
		{"Read", "read_file", `{"path": "a"}`, true},
		{"WebFetch(domain:example.com)", "web_extract", `{"urls": ["https://api.example.com/x"]}`, true},
		{"WebFetch(domain:example.com)", "web_extract", `{"urls": ["https://example.org/"]}`, false},
	} {
		r, err := ParseRule(tc.rule)
		if err != nil {
			t.Errorf("%s: %v", tc.rule, err)
			continue
		}
		if got := r.Match(call(tc.tool, tc.args), "/proj", "/home/u"); got != tc.want {
			t.Errorf("%s on %s %s: %v, want %v", tc.rule, tc.tool, tc.args, got, tc.want)
		}
	}
	for _, bad := range []string{"Task(research)", "mcp__x__y(arg)", "Bash(git *", "WebSearch(x)", "Edit([a)", "not a rule"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("%s must be unevaluable", bad)
		}
	}
}

func TestScriptWords(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
		file bool
	}{
		{ShellArgv(`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`), "/p q/.claude/hooks/x.sh", true},
		{ShellArgv(`python3 ${CLAUDE_PROJECT_DIR}/hooks/check.py --strict`), "python3 /p q/hooks/check.py --strict", true},
		{ShellArgv(`jq -r .tool_input.command | grep -q rm && exit 2`), "jq -r .tool_input.command | grep -q rm && exit 2", false},
		{[]string{"/abs/x.py", "$CLAUDE_PROJECT_DIR"}, "/abs/x.py $CLAUDE_PROJECT_DIR", true},
	} {
		w, ok := ScriptWords(tc.argv, "/p q")
		if !ok || strings.Join(w, " ") != tc.want {
			t.Errorf("%q: %q %v, want %q", tc.argv, w, ok, tc.want)
		}
		if HasScriptFile(w) != tc.file {
			t.Errorf("%q: script file %v, want %v", tc.argv, !tc.file, tc.file)
		}
	}
	if _, ok := ScriptWords(ShellArgv(`echo "unbalanced`), "/p"); ok {
		t.Error("an unsplittable command has no script words")
	}
}

func TestInside(t *testing.T) {
	for _, tc := range []struct {
		cwd, dir string
		want     bool
	}{{"/p", "/p", true}, {"/p/x", "/p", true}, {"/px", "/p", false}, {"/q", "/p", false}, {"/q", "", true}, {"/p/x", "/p/", true}} {
		if Inside(tc.cwd, tc.dir) != tc.want {
			t.Errorf("Inside(%q, %q) != %v", tc.cwd, tc.dir, tc.want)
		}
	}
}

func TestWrap(t *testing.T) {
	w := Wrap{Guard: "/usr/bin/hermes-guard", Event: "pre_tool_call", FailClosed: true, ProjectDir: "/my proj", If: "Bash(git *)"}
	got := Command(w.Argv(ShellArgv(`"$CLAUDE_PROJECT_DIR"/h.sh`)))
	want := `/usr/bin/hermes-guard --event pre_tool_call --fail-closed --dialect claude --project-dir '/my proj' --if 'Bash(git *)' -- sh -c '"$CLAUDE_PROJECT_DIR"/h.sh'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
