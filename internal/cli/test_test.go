package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/viper"

	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// scriptedRunner answers every run with the same result and records the
// requests.
type scriptedRunner struct {
	mu       sync.Mutex
	result   shell.Result
	requests []shell.Request
}

func (r *scriptedRunner) Run(ctx context.Context, req shell.Request) shell.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req)
	return r.result
}

// hookFixture is a HERMES_HOME with a config and an executable hook.sh,
// and a factory on it with buffers for streams.
type hookFixture struct {
	home             string
	f                *Factory
	in, out, errOut  *bytes.Buffer
	runner           *scriptedRunner
	env              map[string]string
	answers, prompts []string
}

func newHookFixture(t *testing.T, cfg string, tty bool) *hookFixture {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "hook.sh"), []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ios, in, out, errOut := iostreams.Test()
	ios.SetTTY(tty)
	zero := 0
	fx := &hookFixture{home: home, in: in, out: out, errOut: errOut,
		runner: &scriptedRunner{result: shell.Result{ExitCode: &zero, Elapsed: 5 * time.Millisecond}},
		env:    map[string]string{}}
	now := time.Date(2026, 11, 29, 10, 11, 12, 0, time.UTC)
	fx.f = &Factory{IO: ios,
		Env:      func(k string) (string, bool) { v, ok := fx.env[k]; return v, ok },
		Environ:  func() []string { return []string{"PATH=/bin"} },
		UserHome: func() string { return home },
		Runner:   fx.runner,
		Now:      func() time.Time { return now },
		Settings: viper.New(),
		Prompter: &fixturePrompter{fx: fx},
	}
	return fx
}

// fixturePrompter answers Confirm with the fixture's answers in turn
// ("y"/"n"; none left: an error) and records the questions.
type fixturePrompter struct{ fx *hookFixture }

func (p *fixturePrompter) Confirm(message, help string, def bool) (bool, error) {
	p.fx.prompts = append(p.fx.prompts, message)
	if def {
		return false, errors.New("the approval prompt must default to No")
	}
	if len(p.fx.answers) == 0 {
		return false, errors.New("unexpected prompt: " + message)
	}
	a := p.fx.answers[0]
	p.fx.answers = p.fx.answers[1:]
	return a == "y", nil
}

func (p *fixturePrompter) MultiSelect(string, []string, func(int) string) ([]int, error) {
	return nil, errors.New("unexpected multi-select")
}

// run executes `hermes --home <home> args...` and returns its exit code.
func (fx *hookFixture) run(t *testing.T, args ...string) int {
	t.Helper()
	fx.out.Reset()
	fx.errOut.Reset()
	root := NewRootCmd(fx.f)
	root.SetArgs(append([]string{"--home", fx.home}, args...))
	return HandleError(fx.f.IO, root.ExecuteContext(context.Background()))
}

func TestNewCmdTestArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    testOptions
		wantErr string
	}{
		{args: []string{"pre_tool_call"}, want: testOptions{Event: "pre_tool_call"}},
		{args: []string{"pre_tool_call", "-", "--for-tool", "patch", "--dry-run", "--json"},
			want: testOptions{Event: "pre_tool_call", payloadFlags: payloadFlags{Stdin: true, ForTool: "patch", DryRun: true, Output: true}}},
		{args: []string{"x", "--payload", `{"a": 1}`}, want: testOptions{Event: "x", payloadFlags: payloadFlags{JSON: `{"a": 1}`}}},
		{args: []string{"x", "--payload-file", "p.json"}, want: testOptions{Event: "x", payloadFlags: payloadFlags{File: "p.json"}}},
		{args: []string{}, wantErr: "needs an event name"},
		{args: []string{"x", "y"}, wantErr: "optionally -"},
		{args: []string{"x", "-", "--payload", "{}"}, wantErr: "give the payload one way"},
		{args: []string{"x", "--payload", "{}", "--payload-file", "f"}, wantErr: "payload"},
		{args: []string{"x", "--timeout", "0s"}, wantErr: "--timeout must be positive"},
		{args: []string{"x", "--payload", ""}, wantErr: "--payload is empty"},
		{args: []string{"x", "--payload-file", " "}, wantErr: "--payload-file is empty"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &Factory{IO: ios, Settings: viper.New()}
			var got *testOptions
			cmd := newCmdTest(f, func(o *testOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.want.f, tt.want.Timeout = f, 60*time.Second
			if got.Event != tt.want.Event || got.payloadFlags != tt.want.payloadFlags {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
}

const testCfg = `hooks:
  pre_tool_call:
    - command: "~/hook.sh guard"
      matcher: terminal
    - command: "~/hook.sh other"
      matcher: patch
`

func TestTestRunHuman(t *testing.T) {
	for _, tty := range []bool{false, true} {
		t.Run(map[bool]string{false: "piped", true: "terminal"}[tty], func(t *testing.T) {
			fx := newHookFixture(t, testCfg, tty)
			two := 2
			fx.runner.result = shell.Result{ExitCode: &two, Stderr: strings.Repeat("é", 450), Elapsed: 1500 * time.Millisecond}
			if code := fx.run(t, "hooks", "test", "pre_tool_call", "--for-tool", "terminal"); code != 0 {
				t.Fatalf("exit %d, want 0 (test only reports); stderr: %s", code, fx.errOut)
			}
			out := fx.out.String()
			for _, want := range []string{
				"HERMES_HOME: " + fx.home,
				"Config: " + filepath.Join(fx.home, "config.yaml"),
				"Firing 1 hook(s) for event 'pre_tool_call':",
				"not allowlisted (run because test was asked to)",
				"exit code: 2   elapsed: 1.500s",
				strings.Repeat("é", 400) + "… (50 more characters)",
				`parsed (Hermes wire shape): {"action": "block", "message": "` + strings.Repeat("é", 400) + `"}`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "other") {
				t.Errorf("--for-tool terminal ran the patch hook:\n%s", out)
			}
			if hasColour := strings.Contains(out, "\x1b["); hasColour != tty {
				t.Errorf("colour codes present = %v at a terminal = %v", hasColour, tty)
			}
			if len(fx.runner.requests) != 1 {
				t.Errorf("%d runs, want 1", len(fx.runner.requests))
			}
			if _, err := os.Stat(filepath.Join(fx.home, "shell-hooks-allowlist.json")); !os.IsNotExist(err) {
				t.Error("test wrote the allowlist")
			}
		})
	}
}

func TestTestRunJSON(t *testing.T) {
	fx := newHookFixture(t, testCfg, false)
	fx.runner.result.Stdout = `{"action": "approve", "message": "ok", "rule_key": "k"}`
	fx.in.WriteString(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/x", "profile": "p", "extra": {"task_id": "t"}}`)
	if code := fx.run(t, "hooks", "test", "pre_tool_call", "-", "--json"); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, fx.errOut)
	}
	var got struct {
		HermesHome string          `json:"hermes_home"`
		ConfigPath *string         `json:"config_path"`
		Event      string          `json:"event"`
		Payload    json.RawMessage `json:"payload"`
		Results    []struct {
			Kind     string         `json:"kind"`
			Command  string         `json:"command"`
			Approved bool           `json:"approved"`
			ExitCode *int           `json:"exit_code"`
			Elapsed  float64        `json:"elapsed_seconds"`
			Parsed   map[string]any `json:"parsed"`
		} `json:"results"`
		Diagnostics []any `json:"diagnostics"`
	}
	if err := json.Unmarshal(fx.out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, fx.out)
	}
	if got.HermesHome != fx.home || got.ConfigPath == nil || got.Event != "pre_tool_call" || got.Diagnostics == nil {
		t.Errorf("header = %+v", got)
	}
	if len(got.Results) != 2 {
		t.Fatalf("%d results, want both hooks (test ignores matchers without --for-tool)", len(got.Results))
	}
	r := got.Results[0]
	if r.Kind != "shell" || r.Command != "~/hook.sh guard" || r.Approved || r.ExitCode == nil || *r.ExitCode != 0 || r.Elapsed != 0.005 {
		t.Errorf("result = %+v", r)
	}
	if r.Parsed["action"] != "approve" || r.Parsed["rule_key"] != "k" {
		t.Errorf("parsed = %v", r.Parsed)
	}
	// The payload reported is the exact stdin.
	var sent, reported any
	_ = json.Unmarshal(fx.runner.requests[0].Stdin, &sent)
	_ = json.Unmarshal(got.Payload, &reported)
	sentJSON, _ := json.Marshal(sent)
	reportedJSON, _ := json.Marshal(reported)
	if !bytes.Equal(sentJSON, reportedJSON) {
		t.Errorf("payload reported %s, sent %s", reportedJSON, sentJSON)
	}
	if !strings.Contains(string(fx.runner.requests[0].Stdin), `"extra": {"task_id": "t", "tool_call_id": "test-call"`) {
		t.Errorf("stdin = %s", fx.runner.requests[0].Stdin)
	}
}

func TestTestRunSafeModeNote(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		fx := newHookFixture(t, testCfg, false)
		fx.env["HERMES_SAFE_MODE"] = "on"
		args := []string{"hooks", "test", "pre_tool_call"}
		if asJSON {
			args = append(args, "--json")
		}
		if code := fx.run(t, args...); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if strings.Count(fx.errOut.String(), "HERMES_SAFE_MODE") != 1 {
			t.Errorf("json=%v: stderr should note safe mode once: %q", asJSON, fx.errOut)
		}
		if len(fx.runner.requests) != 2 {
			t.Errorf("json=%v: test ran %d hooks in safe mode, want 2", asJSON, len(fx.runner.requests))
		}
	}
}

func TestTestRunErrors(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		stderr   string
		nothing  bool
		warnings string
	}{
		{[]string{"pre_tol_call"}, 2, `Unknown event: pre_tol_call — did you mean "pre_tool_call"?`, true, ""},
		{[]string{"pre_tool_call", "--payload-file", "/nonexistent/p.json"}, 2, "payload file /nonexistent/p.json cannot be read", true, ""},
		{[]string{"pre_tool_call", "--payload", "{"}, 2, "payload from --payload is not valid JSON", true, ""},
		{[]string{"pre_tool_call", "--payload", "[1]"}, 0, "", false, "payload from --payload is a list, not an object: ignored"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fx := newHookFixture(t, testCfg, false)
			code := fx.run(t, append([]string{"hooks", "test"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(fx.errOut.String(), tt.stderr+tt.warnings) {
				t.Errorf("stderr %q lacks %q", fx.errOut, tt.stderr+tt.warnings)
			}
			if ran := len(fx.runner.requests) > 0; ran == tt.nothing {
				t.Errorf("ran hooks = %v", ran)
			}
		})
	}
}

func TestTestDryRun(t *testing.T) {
	fx := newHookFixture(t, testCfg, false)
	if code := fx.run(t, "hooks", "test", "pre_tool_call", "--dry-run", "--for-tool", "patch"); code != 0 {
		t.Fatalf("exit %d: %s", code, fx.errOut)
	}
	if len(fx.runner.requests) != 0 {
		t.Fatal("--dry-run ran a hook")
	}
	out := fx.out.String()
	if !strings.Contains(out, "~/hook.sh other") || strings.Contains(out, "~/hook.sh guard") {
		t.Errorf("dry run lists the wrong hooks:\n%s", out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, `{"hook_event_name": "pre_tool_call", "tool_name": "patch", `) {
		t.Errorf("last line should be the exact stdin, got %q", last)
	}
	if !slices.Contains(lines, "stdin:") {
		t.Errorf("no stdin: header:\n%s", out)
	}
}
