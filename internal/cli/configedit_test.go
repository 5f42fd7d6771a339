package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewCmdAddFlags(t *testing.T) {
	got := parsed(t, newCmdAdd, false, "pre_tool_call", "/bin/x --y", "--matcher", "terminal", "--timeout", "10s", "--fail-closed", "--dry-run", "--json")
	got.f = nil
	want := addOptions{Event: "pre_tool_call", Command: "/bin/x --y", Matcher: "terminal", Timeout: "10s", FailClosed: true, DryRun: true, JSON: true}
	if *got != want {
		t.Errorf("options = %+v, want %+v", *got, want)
	}
	if _, err := parseArgs(t, newCmdAdd, "pre_tool_call"); err == nil || !strings.Contains(err.Error(), "needs an event and a command") {
		t.Errorf("one argument: %v", err)
	}
}

func TestNewCmdNewFlags(t *testing.T) {
	got := parsed(t, newCmdNew, false, "pre_llm_call", "ctx.py", "--lang", "python", "--approve")
	got.f = nil
	want := newOptions{Event: "pre_llm_call", Name: "ctx", Lang: "python", Approve: true}
	if *got != want {
		t.Errorf("options = %+v, want %+v", *got, want)
	}
	for args, msg := range map[string]string{
		"pre_tool_call ../x":                      "hook name",
		"pre_tool_call x --lang ruby":             "choose sh or python",
		"pre_tool_call x --dry-run --approve":     "nothing to --approve",
		"pre_tool_call":                           "needs an event and a name",
		"pre_tool_call x --lang python --timeout": "flag needs an argument",
	} {
		_, err := parseArgs(t, newCmdNew, strings.Fields(args)...)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", args, err, msg)
		}
	}
}

func TestNewCmdDeleteFlags(t *testing.T) {
	got := parsed(t, newCmdDelete, false, "/bin/x", "--event", "post_tool_call", "--revoke")
	got.f = nil
	want := deleteOptions{Command: "/bin/x", Event: "post_tool_call", Revoke: true}
	if *got != want {
		t.Errorf("options = %+v, want %+v", *got, want)
	}
}

func TestWholeSeconds(t *testing.T) {
	for in, want := range map[string]int{"10": 10, " 7 ": 7, "30s": 30, "2m": 120} {
		if got, err := wholeSeconds(in); err != nil || got != want {
			t.Errorf("%q = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "1.5s", "soon", "1500ms", "2.5"} {
		if _, err := wholeSeconds(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// With no HERMES_HOME and no --home, new creates ~/.hermes, and the
// ${HERMES_HOME} of the config entry resolves there even though the
// variable is not set: list finds the script, executable.
func TestNewInDefaultHomeResolvesHermesHome(t *testing.T) {
	userHome := t.TempDir()
	h := harnessAt(t, userHome, filepath.Join(userHome, ".hermes"))
	if code := h.run("hooks", "new", "on_session_start", "hello", "--approve"); code != 0 {
		t.Fatalf("new: exit %d\n%s%s", code, h.out, h.err)
	}
	script := filepath.Join(userHome, ".hermes", "agent-hooks", "hello.sh")
	if fi, err := os.Stat(script); err != nil || fi.Mode().Perm() != 0o744 {
		t.Fatalf("script: %v %v", fi, err)
	}
	if code := h.run("hooks", "list", "--json"); code != 0 {
		t.Fatalf("list: exit %d %s", code, h.err)
	}
	out := h.out.String()
	for _, want := range []string{`"script": "` + script + `"`, `"executable": true`, `"approved": true`, `"drift": "unchanged"`} {
		if !strings.Contains(out, want) {
			t.Errorf("list --json lacks %s:\n%s", want, out)
		}
	}
}

// An explicit --home that does not exist is refused by every editing
// command, and nothing is created.
func TestEditingCommandsRefuseMissingExplicitHome(t *testing.T) {
	userHome := t.TempDir()
	missing := filepath.Join(userHome, "typo")
	h := harnessAt(t, userHome, missing)
	for _, args := range [][]string{
		{"hooks", "add", "pre_tool_call", "/bin/true"},
		{"hooks", "new", "pre_tool_call", "g"},
		{"hooks", "delete", "/bin/true"},
		{"hooks", "add", "pre_tool_call", "/bin/true", "--dry-run"},
	} {
		code := h.run(append([]string{"--home", missing}, args...)...)
		if code != ExitUsage || !strings.Contains(h.err.String(), missing+" does not exist") {
			t.Errorf("%v: exit %d, stderr %q", args, code, h.err)
		}
		if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v created %s", args, missing)
		}
	}
}
