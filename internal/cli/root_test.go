package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

func TestHandleErrorExitCodes(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		code    int
		wantErr string // substring of stderr; "" means stderr stays empty
	}{
		{"nil", nil, ExitOK, ""},
		{"usage", usageErrorf("--force needs --event"), ExitUsage, "--force needs --event\nRun 'hermes --help' for usage."},
		{"cobra unknown flag", errors.New("unknown flag: --bogus"), ExitUsage, "unknown flag: --bogus"},
		{"silent", SilentError, ExitFailed, ""},
		{"wrapped silent", fmt.Errorf("x: %w", SilentError), ExitFailed, ""},
		{"exit code", &ExitError{Code: ExitBlocked}, ExitBlocked, ""},
		{"cancel", CancelError, ExitInterrupted, "interrupted"},
		{"profile", &config.ProfileError{Name: "x", Dir: "/r/profiles/x", Source: "--profile"}, ExitUsage,
			`profile "x" does not exist (looked in /r/profiles/x)`},
		{"yaml", &config.SyntaxError{Path: "/h/config.yaml", Line: 4, Msg: "bad"}, ExitUsage, "/h/config.yaml:4: invalid YAML: bad"},
		{"refused by the agent", &config.RefusedError{Path: "/h/config.yaml", Line: 7, Reason: `duplicate key "timeout" (first at line 6)`}, ExitUsage,
			`/h/config.yaml:7: duplicate key "timeout" (first at line 6): the Hermes agent refuses such a file and ignores all of it`},
		{"io", errors.New("cannot save the allowlist: disk full"), ExitFailed, "cannot save the allowlist: disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, _, errOut := iostreams.Test()
			if got := HandleError(ios, tt.err); got != tt.code {
				t.Errorf("HandleError(%v) = %d, want %d", tt.err, got, tt.code)
			}
			if tt.wantErr == "" && errOut.Len() > 0 {
				t.Errorf("stderr = %q, want nothing", errOut)
			}
			if !strings.Contains(errOut.String(), tt.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", errOut, tt.wantErr)
			}
		})
	}
}

func TestRootUnknownHooksSubcommandSuggests(t *testing.T) {
	h := newHarness(t)
	if code := h.run("hooks", "lsit"); code != ExitUsage {
		t.Fatalf("exit code = %d, want %d", code, ExitUsage)
	}
	if want := "unknown command \"lsit\" for \"hermes hooks\"\n\nDid you mean this?\n\tlist\n"; !strings.Contains(h.err.String(), want) {
		t.Errorf("stderr = %q, want it to contain %q", h.err, want)
	}
	if h.out.Len() > 0 {
		t.Errorf("stdout = %q, want nothing", h.out)
	}
}

func TestRootHelpPrintsExitCodes(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"hooks", "--help"}, {"hooks"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			h := newHarness(t)
			if code := h.run(args...); code != ExitOK {
				t.Fatalf("exit code = %d, want 0; stderr: %s", code, h.err)
			}
			if !strings.Contains(h.out.String(), exitCodeTable) {
				t.Errorf("help does not hold the exit-code table:\n%s", h.out)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	h := newHarness(t)
	if code := h.run("version"); code != ExitOK {
		t.Fatalf("exit code = %d", code)
	}
	if got, want := h.out.String(), "hermes "+Version+"\n"; got != want {
		t.Errorf("version printed %q, want %q", got, want)
	}
}

func TestCompletionScripts(t *testing.T) {
	for sh, marker := range map[string]string{"bash": "__start_hermes", "zsh": "#compdef hermes", "fish": "complete -c hermes"} {
		t.Run(sh, func(t *testing.T) {
			h := newHarness(t)
			if code := h.run("completion", sh); code != ExitOK {
				t.Fatalf("exit code = %d; stderr: %s", code, h.err)
			}
			if !strings.Contains(h.out.String(), marker) {
				t.Errorf("completion %s lacks %q", sh, marker)
			}
		})
	}
	h := newHarness(t)
	if code := h.run("completion", "tcsh"); code != ExitUsage {
		t.Errorf("completion tcsh: exit code = %d, want %d", code, ExitUsage)
	}
}

func TestCompleteCommandsAndEvents(t *testing.T) {
	h := newHarness(t)
	h.write(t, "config.yaml", `hooks:
  pre_tool_call:
    - command: /bin/echo b
    - command: /bin/echo a
  post_tool_call:
    - command: /bin/echo a
`, 0o644)
	if code := h.run("__complete", "hooks", "accept", ""); code != ExitOK {
		t.Fatalf("exit code = %d; stderr: %s", code, h.err)
	}
	if got, want := h.out.String(), "/bin/echo a\n/bin/echo b\n:4\n"; got != want {
		t.Errorf("accept completions = %q, want %q (sorted, each command once)", got, want)
	}

	// revoke offers what the allowlist holds, configured or not.
	h.write(t, "shell-hooks-allowlist.json", `{"approvals": [
  {"command": "/opt/old.sh", "event": "pre_tool_call"},
  {"command": "/bin/echo a", "event": "pre_tool_call"},
  {"command": "/bin/echo a", "event": "post_tool_call"}]}`, 0o600)
	if code := h.run("__complete", "hooks", "revoke", ""); code != ExitOK {
		t.Fatalf("exit code = %d; stderr: %s", code, h.err)
	}
	if got, want := h.out.String(), "/bin/echo a\n/opt/old.sh\n:4\n"; got != want {
		t.Errorf("revoke completions = %q, want %q", got, want)
	}

	if code := h.run("__complete", "hooks", "test", "subagent_"); code != ExitOK {
		t.Fatalf("exit code = %d", code)
	}
	if got, want := h.out.String(), "subagent_start\nsubagent_stop\n:4\n"; got != want {
		t.Errorf("test completions = %q, want %q", got, want)
	}

	h.run("__complete", "hooks", "test", "agent:")
	if got, want := h.out.String(), "agent:end\nagent:start\nagent:step\n:4\n"; got != want {
		t.Errorf("gateway completions = %q, want %q", got, want)
	}
}

// A command given --json answers a failure with {"error": {"code",
// "message"}} on stdout, whatever the failure; the human message stays on
// stderr. A failure whose document was already printed adds nothing.
func TestErrorsUnderJSON(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		args    []string
		code    int
		message string // "" = nothing on stdout
	}{
		{[]string{"hooks", "list", "--json", "extra"}, ExitUsage, `hermes hooks list takes no arguments (got ["extra"])`},
		{[]string{"hooks", "list", "--bogus", "--json"}, ExitUsage, "unknown flag: --bogus"},
		{[]string{"hooks", "test", "nope", "--json"}, ExitUsage, `Unknown event: "nope" (see 'hermes hooks events' for the list)`},
		{[]string{"hooks", "test", "pre_tool_call", "--json", "--payload", "{}", "--payload-file", "x"}, ExitUsage,
			"--payload and --payload-file cannot be used together; give one"},
		{[]string{"hooks", "revoke", "--json=true"}, ExitUsage, "hermes hooks revoke needs a command (the exact string from the config) (got 0 argument(s))"},
		{[]string{"hooks", "revoke", "--json=false"}, ExitUsage, ""},
		{[]string{"hooks", "list", "extra"}, ExitUsage, ""},
		// Already reported: revoke --json printed its document.
		{[]string{"hooks", "revoke", "nothing-approved", "--json"}, ExitFailed, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			if code := h.run(tt.args...); code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, h.err)
			}
			if h.err.Len() == 0 {
				t.Error("nothing on stderr")
			}
			if tt.message == "" {
				if strings.Contains(h.out.String(), `"error"`) {
					t.Errorf("stdout = %s, want no error object", h.out)
				}
				return
			}
			var doc struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(h.out.Bytes(), &doc); err != nil {
				t.Fatalf("stdout is not one JSON object: %v\n%s", err, h.out)
			}
			if doc.Error.Code != tt.code || doc.Error.Message != tt.message {
				t.Errorf("error = %+v, want code %d, message %q", doc.Error, tt.code, tt.message)
			}
			if !strings.Contains(h.err.String(), tt.message) {
				t.Errorf("stderr %q lacks the message", h.err)
			}
		})
	}
}

func TestHandleErrorJSONKinds(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		code int
		json bool
	}{
		{"usage", usageErrorf("bad"), ExitUsage, true},
		{"config", &config.SyntaxError{Path: "/h/config.yaml", Line: 4, Msg: "bad"}, ExitUsage, true},
		{"io", errors.New("cannot save the allowlist: disk full"), ExitFailed, true},
		{"cancel", CancelError, ExitInterrupted, true},
		{"cancel after the document", &reportedError{CancelError}, ExitInterrupted, false},
		{"silent", SilentError, ExitFailed, false},
		{"exit code", &ExitError{Code: ExitBlocked}, ExitBlocked, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ios, _, out, _ := iostreams.Test()
			err := &invocationError{err: tt.err, path: "hermes hooks list", json: true}
			if got := HandleError(ios, err); got != tt.code {
				t.Errorf("code %d, want %d", got, tt.code)
			}
			want := ""
			if tt.json {
				want = fmt.Sprintf("{\n  \"error\": {\n    \"code\": %d,\n    \"message\": %q\n  }\n}\n", tt.code, tt.err.Error())
			}
			if out.String() != want {
				t.Errorf("stdout = %q, want %q", out, want)
			}
		})
	}
}

// Once the flags are parsed, --json is what they say: a --json that is the
// value of another flag is not asked for.
func TestErrorsJSONOnlyWhenAsked(t *testing.T) {
	h := newHarness(t)
	if code := h.run("hooks", "test", "nope", "--payload", "--json"); code != ExitUsage {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	if h.out.Len() > 0 {
		t.Errorf("stdout = %s, want nothing", h.out)
	}
}
