//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// editorScript is a real editor for the tests: it refuses to run off a
// terminal (as vi would be useless there) and appends a line to the file.
const editorScript = "#!/bin/sh\n[ -t 0 ] && [ -t 1 ] || { echo 'not at a terminal' >&2; exit 9; }\necho 'exit 2 # stricter' >> \"$1\"\n"

const editConfig = `hooks:
  pre_tool_call:
    - command: ~/.hermes/hook.sh
      matcher: terminal
`

const editHook = "#!/bin/sh\ncat >/dev/null\n"

func editHome(t *testing.T) (home, script, editor string) {
	t.Helper()
	home = newHome(t, editConfig, map[string]string{"hook.sh": editHook})
	runOffTerminal(t, home, "hooks", "accept", "--all", "--yes")
	editor = filepath.Join(home, "editor.sh")
	writeFile(t, editor, editorScript, 0o755)
	return home, filepath.Join(home, ".hermes", "hook.sh"), editor
}

// SPEC §25: edit opens the editor at the terminal, shows the diff against
// the approved bytes, and on yes replaces the script and records what was
// shown.
func TestPromptEditApproves(t *testing.T) {
	t.Parallel()
	home, script, editor := editHome(t)

	s := startAtTerminalWith(t, home, []string{"EDITOR=" + editor}, "hooks", "edit", "~/.hermes/hook.sh")
	s.answer("approve it?", "y\r")
	s.exits(0)
	s.shows("+exit 2 # stricter", "new sha256: ", "✓ replaced "+script+" and approved it")

	got, _ := os.ReadFile(script)
	if string(got) != editHook+"exit 2 # stricter\n" {
		t.Fatalf("script after edit: %q", got)
	}
	a := approvals(t, home)
	if len(a) != 1 || a[0].SHA256 != sha256Of(t, script) || a[0].Command != "~/.hermes/hook.sh" {
		t.Fatalf("approvals after edit: %+v", a)
	}
	if !strings.Contains(s.text(), "new sha256: "+a[0].SHA256) {
		t.Errorf("the sha256 recorded is not the one shown")
	}
	// The hook can block and is not fail-closed: the advice.
	s.shows("add fail_closed: true")
}

// On no, nothing changes; the edited copy is kept and its path printed.
func TestPromptEditDeclinedKeepsCopy(t *testing.T) {
	t.Parallel()
	home, script, editor := editHome(t)
	before := approvals(t, home)

	s := startAtTerminalWith(t, home, []string{"VISUAL=" + editor, "EDITOR=/nonexistent"}, "hooks", "edit", "~/.hermes/hook.sh")
	s.answer("approve it?", "n\r")
	s.exits(0)
	m := regexp.MustCompile(`edited copy is kept at (\S+)`).FindStringSubmatch(s.text())
	if m == nil {
		t.Fatalf("no path of the edited copy on the screen")
	}
	kept, err := os.ReadFile(m[1])
	if err != nil || !strings.HasSuffix(string(kept), "exit 2 # stricter\n") {
		t.Errorf("the kept copy %s: %q, %v", m[1], kept, err)
	}
	os.RemoveAll(filepath.Dir(m[1]))
	if got, _ := os.ReadFile(script); string(got) != editHook {
		t.Errorf("the script changed after no: %q", got)
	}
	if after := approvals(t, home); len(after) != 1 || after[0] != before[0] {
		t.Errorf("the allowlist changed after no: %+v", after)
	}
}
