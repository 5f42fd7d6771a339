package claude

import (
	"os"
	"strings"
	"testing"
)

func TestParseRealisticSettings(t *testing.T) {
	data, err := os.ReadFile("testdata/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	entries, skipped, err := Parse("settings.json", data)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		event, command, matcher string
		timeout                 int
	}
	want := []row{
		{"pre_tool_call", `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check-bash.sh`, "terminal", 30},
		{"pre_tool_call", "python3 /home/me/hooks/protect_files.py", "patch|write_file", 0},
		{"pre_tool_call", "/home/me/hooks/read.sh", "read_file", 300},
		{"post_tool_call", "jq -r .tool_input.file_path | xargs prettier --write", "", 0},
		{"pre_llm_call", "/home/me/hooks/add-context.sh", "", 0},
		{"on_session_start", "/home/me/hooks/start.sh", "", 0},
	}
	if len(entries) != len(want) {
		t.Fatalf("got %d entries: %+v", len(entries), entries)
	}
	for i, w := range want {
		e := entries[i]
		if (row{e.Event, e.Command, e.Matcher, e.Timeout}) != w {
			t.Errorf("entry %d = %+v, want %+v", i, e, w)
		}
	}
	notes := func(i int) string { return strings.Join(entries[i].Notes, "\n") }
	for i, sub := range map[int]string{
		0: "$CLAUDE_PROJECT_DIR, which Hermes does not set",
		2: "Glob: left out of the matcher",
		3: "runs commands through a shell",
		4: `Hermes needs {"context": "..."}`,
		5: `matcher "startup" dropped`,
	} {
		if !strings.Contains(notes(i), sub) {
			t.Errorf("entry %d notes %q lack %q", i, notes(i), sub)
		}
	}
	if strings.Contains(notes(2), "clamped") == false {
		t.Errorf("timeout 900 not reported as clamped: %q", notes(2))
	}
	wantSkipped := []string{
		"settings.json (PreToolUse)|hook of type \"http\"",
		"settings.json (PreToolUse)|matcher \"mcp__github__.*\" is a pattern",
		"settings.json (PreToolUse)|no Hermes counterpart for Claude Code tool(s) NotebookEdit",
		"settings.json (Notification)|Claude Code event Notification has no Hermes counterpart (1 hook(s) not imported)",
		"settings.json (Stop)|Claude Code event Stop has no Hermes counterpart",
	}
	if len(skipped) != len(wantSkipped) {
		t.Fatalf("skipped %+v", skipped)
	}
	for i, w := range wantSkipped {
		src, reason, _ := strings.Cut(w, "|")
		if skipped[i].Source != src || !strings.Contains(skipped[i].Reason, reason) {
			t.Errorf("skipped %d = %+v, want %s: %s", i, skipped[i], src, reason)
		}
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
	if len(s) != 1 || !strings.Contains(s[0].Reason, "cannot be parsed") {
		t.Errorf("unparseable command: %+v", s)
	}
}
