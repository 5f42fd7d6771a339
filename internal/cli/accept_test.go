package cli

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

func TestNewCmdAcceptFlags(t *testing.T) {
	sha := strings.Repeat("AB", 32)
	tests := []struct {
		args    string
		want    acceptOptions // f is not compared
		wantErr string
	}{
		{args: "", want: acceptOptions{}},
		{args: "--all --yes", want: acceptOptions{All: true, Yes: true}},
		{args: "-y --json '/bin/echo hi' --event pre_tool_call",
			want: acceptOptions{Command: "/bin/echo hi", Event: "pre_tool_call", Yes: true, JSON: true}},
		{args: "x --force --event on_session_start --yes",
			want: acceptOptions{Command: "x", Event: "on_session_start", Force: true, Yes: true}},
		{args: "x --sha256 " + sha, want: acceptOptions{Command: "x", SHA256: strings.ToLower(sha)}},
		{args: "--all --event post_tool_call", want: acceptOptions{All: true, Event: "post_tool_call"}},
		{args: "x --all", wantErr: "either COMMAND or --all"},
		{args: "--force --event pre_tool_call", wantErr: "--force needs the COMMAND to approve"},
		// --force never records a string the agent could not match.
		{args: "' ' --force --event pre_tool_call", wantErr: "--force: the command is blank"},
		{args: "' x.sh' --force --event pre_tool_call", wantErr: `--force: command " x.sh" has white space around it`},
		{args: `'x.sh "unbalanced' --force --event pre_tool_call`, wantErr: "cannot be parsed"},
		{args: "--show", wantErr: "--show prints the script of a COMMAND"},
		{args: "--sha256 " + sha, wantErr: "give the COMMAND"},
		{args: "x --sha256 abc", wantErr: "is not a sha256"},
		{args: "x y", wantErr: "takes at most one COMMAND, got 2 arguments"},
		// SPEC §20: the lock is the consent, and all of it.
		{args: "--from-lock hooks.lock.json", want: acceptOptions{FromLock: "hooks.lock.json"}},
		{args: "--from-lock l.json --event pre_tool_call --json", want: acceptOptions{FromLock: "l.json", Event: "pre_tool_call", JSON: true}},
		{args: "--from-lock l.json --all", wantErr: "--from-lock approves what the lock says"},
		{args: "x --from-lock l.json", wantErr: "--from-lock approves what the lock says"},
		{args: "--from-lock l.json --show", wantErr: "--from-lock approves what the lock says"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			argv, err := shell.Split(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := parseArgs(t, newCmdAccept, argv...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				if got != nil {
					t.Error("runF was called despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.f = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

// acceptHarness is a home with two shell hooks on one script.
func acceptHarness(t *testing.T) *cliHarness {
	t.Helper()
	h := newHarness(t)
	h.write(t, "agent-hooks/guard.sh", "#!/bin/sh\nexit 0\n", 0o755)
	h.write(t, "config.yaml", `hooks:
  pre_tool_call:
    - command: ~/.hermes/agent-hooks/guard.sh
  post_tool_call:
    - command: ~/.hermes/agent-hooks/guard.sh --post
`, 0o644)
	return h
}

func TestAcceptAtTerminalAsksAndNoWritesNothing(t *testing.T) {
	h := acceptHarness(t)
	h.ios.SetTTY(true)
	h.prompter.confirms = []bool{false}
	err := acceptRun(nil, &acceptOptions{f: h.f, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.prompter.asked) != 1 || !strings.Contains(h.prompter.asked[0], "Approve 2 hook(s)?") ||
		!strings.Contains(h.prompter.asked[0], "full user credentials") {
		t.Errorf("questions = %q, want one asking to approve 2 hooks", h.prompter.asked)
	}
	if h.prompter.defaults[0] {
		t.Error("the question defaults to yes; it must default to No")
	}
	// Each hook is shown on the terminal before the question.
	for _, want := range []string{"pre_tool_call  ~/.hermes/agent-hooks/guard.sh  (script: " + h.home + "/agent-hooks/guard.sh)",
		"post_tool_call  ~/.hermes/agent-hooks/guard.sh --post"} {
		if !strings.Contains(h.out.String(), want) {
			t.Errorf("stdout = %q, want it to show %q", h.out, want)
		}
	}
	if !strings.Contains(h.err.String(), "Nothing approved.") {
		t.Errorf("stderr = %q, want it to say nothing was approved", h.err)
	}
	if _, err := os.Stat(h.allowlistPath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("allowlist written after the answer No (stat: %v)", err)
	}
}

func TestAcceptAtTerminalDeclinedJSONStillPrintsAnObject(t *testing.T) {
	h := acceptHarness(t)
	h.ios.SetTTY(true)
	h.prompter.confirms = []bool{false}
	if err := acceptRun(nil, &acceptOptions{f: h.f, All: true, JSON: true}); err != nil {
		t.Fatal(err)
	}
	var got acceptJSON
	if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, h.out)
	}
	if got.Approved == nil || len(got.Approved) != 0 || got.HermesHome != h.home {
		t.Errorf("JSON = %+v, want an empty approved list and hermes_home %s", got, h.home)
	}
}

func TestAcceptAtTerminalYesRecords(t *testing.T) {
	h := acceptHarness(t)
	h.ios.SetTTY(true)
	h.prompter.confirms = []bool{true}
	if err := acceptRun(nil, &acceptOptions{f: h.f, Command: "~/.hermes/agent-hooks/guard.sh"}); err != nil {
		t.Fatal(err)
	}
	got := h.approvals(t)
	if len(got) != 1 {
		t.Fatalf("approvals = %v, want 1", got)
	}
	e := got[0]
	if e["event"] != "pre_tool_call" || e["command"] != "~/.hermes/agent-hooks/guard.sh" ||
		e["approved_via"] != "accept" || e["approved_at"] != "2026-11-29T10:11:12.345678Z" {
		t.Errorf("entry = %v", e)
	}
	if sha, _ := e["script_sha256_at_approval"].(string); len(sha) != 64 {
		t.Errorf("script_sha256_at_approval = %v, want a sha256", e["script_sha256_at_approval"])
	}
	// At a terminal the output is coloured; the key words stay.
	if out := h.out.String(); !strings.Contains(out, "\x1b[32m✓\x1b[0m approved  pre_tool_call  ~/.hermes/agent-hooks/guard.sh") {
		t.Errorf("stdout = %q, want a green ✓ approved line", out)
	}
}

func TestAcceptYesSkipsTheQuestion(t *testing.T) {
	for _, tty := range []bool{false, true} {
		h := acceptHarness(t)
		h.ios.SetTTY(tty)
		if err := acceptRun(nil, &acceptOptions{f: h.f, All: true, Yes: true}); err != nil {
			t.Fatal(err)
		}
		if len(h.prompter.asked) != 0 {
			t.Errorf("tty=%t: asked %q despite --yes", tty, h.prompter.asked)
		}
		if n := len(h.approvals(t)); n != 2 {
			t.Errorf("tty=%t: %d approvals, want 2", tty, n)
		}
		if !tty && strings.Contains(h.out.String(), "\x1b[") {
			t.Errorf("colour codes off a terminal: %q", h.out)
		}
	}
}

func TestAcceptOffTerminalNeedsYes(t *testing.T) {
	h := acceptHarness(t)
	err := acceptRun(nil, &acceptOptions{f: h.f, All: true})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "needs --yes") {
		t.Fatalf("error = %v, want a usage error saying --yes is needed", err)
	}
	if _, err := os.Stat(h.allowlistPath()); !errors.Is(err, os.ErrNotExist) {
		t.Error("allowlist written without --yes")
	}

	// No arguments off a terminal: there is no picker to show.
	err = acceptRun(nil, &acceptOptions{f: h.f, Yes: true})
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--all") {
		t.Fatalf("error = %v, want a usage error naming COMMAND / --all", err)
	}
}

func TestAcceptPickerApprovesWhatIsPicked(t *testing.T) {
	h := acceptHarness(t)
	h.ios.SetTTY(true)
	h.prompter.picks = [][]int{{1}}
	if err := acceptRun(nil, &acceptOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	if len(h.prompter.options) != 1 || len(h.prompter.options[0]) != 2 {
		t.Fatalf("picker options = %q, want the 2 pending hooks", h.prompter.options)
	}
	if o := h.prompter.options[0][1]; !strings.Contains(o, "post_tool_call") || !strings.Contains(o, "--post") {
		t.Errorf("option = %q", o)
	}
	if !strings.Contains(h.out.String(), "Commands run with your full user credentials. Only approve commands you trust.") {
		t.Errorf("stdout = %q, want the credentials warning", h.out)
	}
	got := h.approvals(t)
	if len(got) != 1 || got[0]["command"] != "~/.hermes/agent-hooks/guard.sh --post" {
		t.Errorf("approvals = %v, want only the picked hook", got)
	}

	// Nothing picked: nothing written, and it says so.
	h.out.Reset()
	h.prompter.picks = [][]int{{}}
	before, _ := os.ReadFile(h.allowlistPath())
	if err := acceptRun(nil, &acceptOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(h.allowlistPath())
	if string(before) != string(after) {
		t.Error("allowlist changed though nothing was picked")
	}
	if !strings.Contains(h.out.String(), "Nothing approved.") {
		t.Errorf("stdout = %q", h.out)
	}
}

func TestAcceptEventNarrowsAll(t *testing.T) {
	h := acceptHarness(t)
	if err := acceptRun(nil, &acceptOptions{f: h.f, All: true, Yes: true, Event: "post_tool_call"}); err != nil {
		t.Fatal(err)
	}
	got := h.approvals(t)
	if len(got) != 1 || got[0]["event"] != "post_tool_call" {
		t.Errorf("approvals = %v, want only the post_tool_call hook", got)
	}
}

func TestAcceptRefusesEventsWithoutShellHooks(t *testing.T) {
	for event, want := range map[string]string{
		"agent:start":                        "gateway event",
		"transform_api_error_classification": "cannot serve",
		"pre_tol_call":                       `did you mean "pre_tool_call"`,
	} {
		h := acceptHarness(t)
		err := acceptRun(nil, &acceptOptions{f: h.f, Command: "x", Force: true, Event: event, Yes: true})
		var usage *UsageError
		if !errors.As(err, &usage) || !strings.Contains(err.Error(), want) {
			t.Errorf("--event %s: error = %v, want a usage error containing %q", event, err, want)
		}
	}
}
