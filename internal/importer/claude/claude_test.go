package claude

import (
	"context"
	"os"
	"strings"
	"testing"
)

func importOne(t *testing.T, file, project string, data string, opts Options) ([]Entry, []Skipped) {
	t.Helper()
	if opts.Guard == "" {
		opts.Guard = "/opt/hermes/hermes-guard"
	}
	e, s, err := Import(context.Background(), []File{{Path: file, ProjectDir: project, Data: []byte(data)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e, s
}

func TestImportRealisticSettings(t *testing.T) {
	data, err := os.ReadFile("testdata/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	entries, skipped := importOne(t, "/p/.claude/settings.json", "/p", string(data), Options{})
	type row struct {
		event, command, matcher string
		timeout                 int
	}
	const g = "/opt/hermes/hermes-guard --event "
	want := []row{
		{"pre_tool_call", g + `pre_tool_call --dialect claude --project-dir /p -- sh -c '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh'`, "terminal", 30},
		{"pre_tool_call", g + `pre_tool_call --dialect claude --project-dir /p -- sh -c 'python3 /home/me/hooks/protect_files.py'`, "patch|write_file", 0},
		{"pre_tool_call", g + `pre_tool_call --dialect claude --project-dir /p -- sh -c /home/me/hooks/mcp.sh`, "mcp_github_.*", 0},
		{"pre_tool_call", g + `pre_tool_call --dialect claude --project-dir /p -- sh -c /home/me/hooks/read.sh`, "search_files|read_file", 300},
		{"post_tool_call", g + `post_tool_call --dialect claude --project-dir /p -- sh -c 'jq -r .tool_input.file_path | xargs prettier --write'`, "", 0},
		{"pre_llm_call", g + `pre_llm_call --dialect claude --project-dir /p -- sh -c /home/me/hooks/add-context.sh`, "", 0},
		{"on_session_start", g + `on_session_start --dialect claude --project-dir /p -- sh -c /home/me/hooks/start.sh`, "", 0},
	}
	if len(entries) != len(want) {
		t.Fatalf("got %d entries: %+v", len(entries), entries)
	}
	for i, w := range want {
		e := entries[i]
		if (row{e.Event, e.Command, e.Matcher, e.Timeout}) != w {
			t.Errorf("entry %d = %+v\nwant %+v", i, row{e.Event, e.Command, e.Matcher, e.Timeout}, w)
		}
	}
	notes := func(i int) string { return strings.Join(entries[i].Notes, "\n") }
	for i, sub := range map[int]string{
		3: "Grep, LS: the hook fires for those calls too",
		4: "no script file: what is approved is the command itself",
	} {
		if !strings.Contains(notes(i), sub) {
			t.Errorf("entry %d notes %q lack %q", i, notes(i), sub)
		}
	}
	wantSkipped := []string{
		"(PreToolUse)|https://hooks.example.test/claude|hook of type \"http\"",
		"(PreToolUse)|/home/me/hooks/nb.sh|no Hermes counterpart for Claude Code tool(s) NotebookEdit",
		"(Notification)|notify-send Claude|Claude Code event Notification has no Hermes counterpart",
		"(Stop)||hook of type \"prompt\"",
	}
	if len(skipped) != len(wantSkipped) {
		t.Fatalf("skipped %+v", skipped)
	}
	for i, w := range wantSkipped {
		p := strings.Split(w, "|")
		if !strings.HasSuffix(skipped[i].Source, p[0]) || skipped[i].Command != p[1] || !strings.Contains(skipped[i].Reason, p[2]) {
			t.Errorf("skipped %d = %+v, want %s", i, skipped[i], w)
		}
	}
}

func TestImportHookFields(t *testing.T) {
	const pre = `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [%s]}]}}`
	for _, tc := range []struct {
		name, hook, project string
		raw                 bool
		command, skip, note string
		failClosed          bool
	}{
		{"onFailure block", `{"type": "command", "command": "/h/g.sh", "onFailure": "block"}`, "/p", false,
			"/g --event pre_tool_call --fail-closed --dialect claude --project-dir /p -- sh -c /h/g.sh", "", "", true},
		{"if rule", `{"type": "command", "command": "/h/g.sh", "if": "Bash(git *)"}`, "/p", false,
			"/g --event pre_tool_call --dialect claude --project-dir /p --if 'Bash(git *)' -- sh -c /h/g.sh", "", "", false},
		{"unevaluable if", `{"type": "command", "command": "/h/g.sh", "if": "Task(research)"}`, "/p", false, "", "Task(research)", "", false},
		{"if raw", `{"type": "command", "command": "/h/g.sh", "if": "Bash(git *)"}`, "/p", true, "", "without --raw", "", false},
		{"exec form", `{"type": "command", "command": "$CLAUDE_PROJECT_DIR/h.py", "args": ["--strict", "a b"]}`, "/p q", false,
			"/g --event pre_tool_call --dialect claude --project-dir '/p q' -- '/p q/h.py' --strict 'a b'", "", "", false},
		{"raw", `{"type": "command", "command": "/h/g.sh x"}`, "/p", true, "/h/g.sh x", "", "runs in every directory", false},
		{"user hook under project dir", `{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/x.sh"}`, "", false, "", "no approval can pin", "", false},
		{"user hook", `{"type": "command", "command": "~/hooks/x.sh"}`, "", false,
			"/g --event pre_tool_call --dialect claude -- sh -c '~/hooks/x.sh'", "", "", false},
		{"braces", `{"type": "command", "command": "\"${CLAUDE_PROJECT_DIR}\"/h.sh ${CLAUDE_PROJECT_DIR}"}`, "/p", false,
			`/g --event pre_tool_call --dialect claude --project-dir /p -- sh -c '"$CLAUDE_PROJECT_DIR"/h.sh $CLAUDE_PROJECT_DIR'`, "", "", false},
		{"braces needed", `{"type": "command", "command": "${CLAUDE_PROJECT_DIR}_x/h.sh"}`, "/p", false, "", "before a letter", "", false},
		{"async", `{"type": "command", "command": "/h/g.sh", "async": true}`, "/p", false, "", "", "async", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, s := importOne(t, "/p/.claude/settings.json", tc.project, strings.Replace(pre, "%s", tc.hook, 1), Options{Guard: "/g", Raw: tc.raw})
			if tc.skip != "" {
				if len(s) != 1 || !strings.Contains(s[0].Reason, tc.skip) || s[0].Command == "" {
					t.Fatalf("skipped %+v, want one with %q and the command", s, tc.skip)
				}
				return
			}
			if len(e) != 1 {
				t.Fatalf("entries %+v skipped %+v", e, s)
			}
			if tc.command != "" && e[0].Command != tc.command {
				t.Errorf("command\n got %s\nwant %s", e[0].Command, tc.command)
			}
			if e[0].FailClosed != tc.failClosed {
				t.Errorf("fail_closed %v", e[0].FailClosed)
			}
			if n := strings.Join(e[0].Notes, "\n"); tc.note != "" && !strings.Contains(n, tc.note) {
				t.Errorf("notes %q lack %q", n, tc.note)
			}
		})
	}
}

func TestImportEvents(t *testing.T) {
	data := `{"hooks": {
	  "Stop": [{"hooks": [{"type": "command", "command": "/h/stop.py"}]}],
	  "SubagentStart": [{"matcher": "researcher", "hooks": [{"type": "command", "command": "/h/sub.sh"}]}],
	  "SessionStart": [{"matcher": "resume", "hooks": [{"type": "command", "command": "/h/resume.sh"}]},
	                   {"matcher": "startup|clear", "hooks": [{"type": "command", "command": "/h/start.sh"}]}],
	  "SessionEnd": [{"hooks": [{"type": "command", "command": "/h/end.sh", "onFailure": "block"}]}],
	  "PreCompact": [{"hooks": [{"type": "command", "command": "/h/compact.sh"}]}]
	}}`
	e, s := importOne(t, "/p/.claude/settings.json", "/p", data, Options{})
	got := map[string]string{}
	for _, x := range e {
		got[x.Claude] = x.Event + " " + strings.Join(x.Notes, "; ")
	}
	for cmd, want := range map[string]string{"/h/stop.py": "pre_verify", "/h/sub.sh": "subagent_start", "/h/start.sh": "on_session_start", "/h/end.sh": "on_session_end"} {
		if !strings.HasPrefix(got[cmd], want) {
			t.Errorf("%s → %q, want %s", cmd, got[cmd], want)
		}
	}
	if !strings.Contains(got["/h/sub.sh"], "every subagent") || !strings.Contains(got["/h/end.sh"], "onFailure") {
		t.Errorf("notes: %v", got)
	}
	reasons := map[string]string{}
	for _, x := range s {
		reasons[x.Command] = x.Reason
	}
	if !strings.Contains(reasons["/h/resume.sh"], "never matches") || !strings.Contains(reasons["/h/compact.sh"], "PreCompact has no Hermes counterpart") {
		t.Errorf("skipped: %v", reasons)
	}
}

func TestImportDisableAllHooksAndDuplicates(t *testing.T) {
	hook := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/h/g.sh"}]}]}}`
	files := []File{{Path: "/u/.claude/settings.json", Data: []byte(hook)}, {Path: "/p/.claude/settings.json", ProjectDir: "/p", Data: []byte(hook)}}
	e, s, err := Import(context.Background(), files, Options{Guard: "/g"})
	if err != nil || len(e) != 1 || len(s) != 1 || !strings.Contains(s[0].Reason, "identical hooks once") {
		t.Fatalf("duplicates: %+v %+v %v", e, s, err)
	}
	files = append(files, File{Path: "/p/.claude/settings.local.json", ProjectDir: "/p", Data: []byte(`{"disableAllHooks": true}`)})
	e, s, _ = Import(context.Background(), files, Options{Guard: "/g"})
	if len(e) != 0 || len(s) != 2 || !strings.Contains(s[0].Reason, "disableAllHooks is true in /p/.claude/settings.local.json") || s[0].Command != "/h/g.sh" {
		t.Fatalf("disableAllHooks: %+v %+v", e, s)
	}
}

func TestImportInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Import(ctx, []File{{Path: "x", Data: []byte(`{"hooks": {"PreToolUse": [{"hooks": []}]}}`)}}, Options{Guard: "/g"})
	if err != context.Canceled {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestParseOddFiles(t *testing.T) {
	if _, _, err := Parse("x.json", []byte("{not json")); err == nil {
		t.Error("invalid JSON accepted")
	}
	if e, s, err := Parse("x.json", []byte(`{"model": "opus"}`)); err != nil || len(e)+len(s) != 0 {
		t.Errorf("no hooks: %v %v %v", e, s, err)
	}
	_, s, _ := Parse("x.json", []byte(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "a 'b"}]}]}}`))
	if len(s) != 1 || !strings.Contains(s[0].Reason, "cannot be parsed") || s[0].Command != "a 'b" {
		t.Errorf("unparseable command: %+v", s)
	}
}

// TestImportUnseen: each tool hook carries the Hermes tools that can do
// what its if rule or matcher guards but never fire it (SPEC §24 item 3);
// hooks that see every tool, or guard nothing of the table, carry none.
func TestImportUnseen(t *testing.T) {
	data, err := os.ReadFile("testdata/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := importOne(t, "/p/.claude/settings.json", "/p", string(data), Options{})
	want := []string{
		"matcher Bash never sees execute_code, process_manage, cronjob_manage (they can run commands too)",
		"matcher Edit|MultiEdit|Write never sees terminal, execute_code (they can change files too)",
		"", // mcp__github__.*
		"matcher Glob|Read never sees terminal, execute_code (they can read files too)",
		"", "", "", // every tool; pre_llm_call; on_session_start
	}
	for i, e := range entries {
		got := ""
		if e.Unseen != nil {
			got = e.Unseen.String()
		}
		if got != want[i] {
			t.Errorf("entry %d (%s):\n got  %q\n want %q", i, e.Claude, got, want[i])
		}
	}

	// The if rule is what the hook guards, and the rule's reach is cut
	// down by the group's matcher.
	rules := `{"hooks": {"PreToolUse": [
	  {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "/h/env.py", "if": "Edit(*.env)"}]},
	  {"matcher": "Write", "hooks": [{"type": "command", "command": "/h/narrow.py", "if": "Edit(*.env)"}]},
	  {"hooks": [{"type": "command", "command": "/h/rm.sh", "if": "Bash(rm *)"}]},
	  {"matcher": "Bash", "hooks": [{"type": "command", "command": "/h/any.sh", "if": "Bash"}]},
	  {"hooks": [{"type": "command", "command": "/h/all.sh"}]}
	]}}`
	entries, _ = importOne(t, "/p/.claude/settings.json", "/p", rules, Options{})
	want = []string{
		"Edit(*.env) never sees terminal, execute_code (they can change files too)",
		"Edit(*.env) never sees terminal, execute_code, patch (they can change files too)",
		"Bash(rm *) never sees execute_code, process_manage, cronjob_manage (they can run commands too)",
		"Bash never sees execute_code, process_manage, cronjob_manage (they can run commands too)",
		"",
	}
	if len(entries) != len(want) {
		t.Fatalf("entries %+v", entries)
	}
	for i, e := range entries {
		got := ""
		if e.Unseen != nil {
			got = e.Unseen.String()
		}
		if got != want[i] {
			t.Errorf("%s:\n got  %q\n want %q", e.Claude, got, want[i])
		}
	}
}
