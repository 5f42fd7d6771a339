package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

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
		{args: []string{"x", "--timeout", "0"}, wantErr: "--timeout must be positive"},
		{args: []string{"x", "--timeout", "-2"}, wantErr: "--timeout must be positive"},
		{args: []string{"x", "--timeout", "2"}, want: testOptions{Event: "x", payloadFlags: payloadFlags{Timeout: 2 * time.Second}}},
		{args: []string{"x", "--timeout=2.5"}, want: testOptions{Event: "x", payloadFlags: payloadFlags{Timeout: 2500 * time.Millisecond}}},
		{args: []string{"x", "--timeout", "2s"}, want: testOptions{Event: "x", payloadFlags: payloadFlags{Timeout: 2 * time.Second}}},
		{args: []string{"x", "--timeout", "1m"}, want: testOptions{Event: "x", payloadFlags: payloadFlags{Timeout: time.Minute}}},
		{args: []string{"x", "--timeout", "2 s"}, wantErr: `invalid argument "2 s" for "--timeout" flag: want a number of seconds (30, 2.5) or a duration (45s, 1m30s)`},
		{args: []string{"x", "--timeout", "NaN"}, wantErr: "want a number of seconds"},
		{args: []string{"x", "--payload", ""}, wantErr: "--payload is empty"},
		{args: []string{"x", "--payload-file", " "}, wantErr: "--payload-file is empty"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, err := parseArgs(t, newCmdTest, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want.Timeout == 0 {
				tt.want.Timeout = 60 * time.Second // the default
			}
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
			h := newHookHarness(t, testCfg, tty)
			two := 2
			h.runner.result = shell.Result{ExitCode: &two, Stderr: strings.Repeat("é", 450), Elapsed: 1500 * time.Millisecond}
			if code := h.run("hooks", "test", "pre_tool_call", "--for-tool", "terminal"); code != 0 {
				t.Fatalf("exit %d, want 0 (test only reports); stderr: %s", code, h.err)
			}
			out := h.out.String()
			for _, want := range []string{
				"HERMES_HOME: " + h.home,
				"Config: " + filepath.Join(h.home, "config.yaml"),
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
			if len(h.runner.requests) != 1 {
				t.Errorf("%d runs, want 1", len(h.runner.requests))
			}
			if _, err := os.Stat(filepath.Join(h.home, "shell-hooks-allowlist.json")); !os.IsNotExist(err) {
				t.Error("test wrote the allowlist")
			}
		})
	}
}

func TestTestRunJSON(t *testing.T) {
	h := newHookHarness(t, testCfg, false)
	h.runner.result.Stdout = `{"action": "approve", "message": "ok", "rule_key": "k"}`
	h.in.WriteString(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/x", "profile": "p", "extra": {"task_id": "t"}}`)
	if code := h.run("hooks", "test", "pre_tool_call", "-", "--json"); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, h.err)
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
		} `json:"hooks"`
		Alias          []json.RawMessage `json:"results"`
		Outcome        map[string]any    `json:"outcome"`
		MatcherSkipped int               `json:"matcher_skipped"`
		Diagnostics    []any             `json:"diagnostics"`
	}
	if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, h.out)
	}
	if got.HermesHome != h.home || got.ConfigPath == nil || got.Event != "pre_tool_call" || got.Diagnostics == nil {
		t.Errorf("header = %+v", got)
	}
	// SPEC §20: the payload names terminal, so the matcher applies as in
	// run-event: the patch hook does not run.
	if len(got.Results) != 1 || got.MatcherSkipped != 1 {
		t.Fatalf("%d hooks (%d skipped by matcher), want the terminal one only", len(got.Results), got.MatcherSkipped)
	}
	if len(got.Alias) != 1 {
		t.Errorf("results (the alias of hooks) has %d entries", len(got.Alias))
	}
	if got.Outcome["action"] != "approve" {
		t.Errorf("outcome = %v, want the aggregated approve", got.Outcome)
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
	_ = json.Unmarshal(h.runner.requests[0].Stdin, &sent)
	_ = json.Unmarshal(got.Payload, &reported)
	sentJSON, _ := json.Marshal(sent)
	reportedJSON, _ := json.Marshal(reported)
	if !bytes.Equal(sentJSON, reportedJSON) {
		t.Errorf("payload reported %s, sent %s", reportedJSON, sentJSON)
	}
	if !strings.Contains(string(h.runner.requests[0].Stdin), `"extra": {"task_id": "t", "tool_call_id": "test-call"`) {
		t.Errorf("stdin = %s", h.runner.requests[0].Stdin)
	}
}

func TestTestRunSafeModeNote(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		h := newHookHarness(t, testCfg, false)
		h.env["HERMES_SAFE_MODE"] = "on"
		args := []string{"hooks", "test", "pre_tool_call"}
		if asJSON {
			args = append(args, "--json")
		}
		if code := h.run(args...); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if strings.Count(h.err.String(), "HERMES_SAFE_MODE") != 1 {
			t.Errorf("json=%v: stderr should note safe mode once: %q", asJSON, h.err)
		}
		if len(h.runner.requests) != 2 {
			t.Errorf("json=%v: test ran %d hooks in safe mode, want 2", asJSON, len(h.runner.requests))
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
		{[]string{"pre_tol_call"}, 2, `Unknown event: "pre_tol_call" — did you mean "pre_tool_call"?`, true, ""},
		{[]string{"pre_tool_call", "--payload-file", "/nonexistent/p.json"}, 2, "payload file /nonexistent/p.json cannot be read", true, ""},
		{[]string{"pre_tool_call", "--payload", "{"}, 2, "payload from --payload is not valid JSON", true, ""},
		{[]string{"pre_tool_call", "--payload", "[1]"}, 2, "payload from --payload is a list, not a JSON object", true, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			h := newHookHarness(t, testCfg, false)
			code := h.run(append([]string{"hooks", "test"}, tt.args...)...)
			if code != tt.code {
				t.Errorf("exit %d, want %d", code, tt.code)
			}
			if !strings.Contains(h.err.String(), tt.stderr+tt.warnings) {
				t.Errorf("stderr %q lacks %q", h.err, tt.stderr+tt.warnings)
			}
			if ran := len(h.runner.requests) > 0; ran == tt.nothing {
				t.Errorf("ran hooks = %v", ran)
			}
		})
	}
}

func TestTestDryRun(t *testing.T) {
	h := newHookHarness(t, testCfg, false)
	if code := h.run("hooks", "test", "pre_tool_call", "--dry-run", "--for-tool", "patch"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	if len(h.runner.requests) != 0 {
		t.Fatal("--dry-run ran a hook")
	}
	out := h.out.String()
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
