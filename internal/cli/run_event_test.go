package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/shell"
)

func TestNewCmdRunEventFlags(t *testing.T) {
	got, err := parseArgs(t, newCmdRunEvent, "pre_tool_call", "--exit-code", "--accept-hooks", "--for-tool", "terminal", "-")
	if err != nil {
		t.Fatal(err)
	}
	if got.Event != "pre_tool_call" || !got.ExitCode || !got.AcceptHooks || got.ForTool != "terminal" || !got.Stdin {
		t.Errorf("options = %+v", *got)
	}
}

const observerCfg = `hooks:
  on_session_start:
    - command: "~/hook.sh start"
`

func TestRunEventConsentSources(t *testing.T) {
	tests := []struct {
		name    string
		cfg     string
		env     map[string]string
		args    []string
		wantVia string // "" = not approved, skipped with the warning
	}{
		{"nothing", observerCfg, nil, []string{"hooks", "run-event", "on_session_start"}, ""},
		{"global flag", observerCfg, nil, []string{"--accept-hooks", "hooks", "run-event", "on_session_start"}, allowlist.ViaAcceptHooksFlag},
		{"run-event flag", observerCfg, nil, []string{"hooks", "run-event", "on_session_start", "--accept-hooks"}, allowlist.ViaAcceptHooksFlag},
		{"env", observerCfg, map[string]string{"HERMES_ACCEPT_HOOKS": "TRUE"}, []string{"hooks", "run-event", "on_session_start"}, allowlist.ViaEnv},
		{"env falsy", observerCfg, map[string]string{"HERMES_ACCEPT_HOOKS": "0"}, []string{"hooks", "run-event", "on_session_start"}, ""},
		{"config", "hooks_auto_accept: on\n" + observerCfg, nil, []string{"hooks", "run-event", "on_session_start"}, allowlist.ViaConfig},
		{"flag beats env", observerCfg, map[string]string{"HERMES_ACCEPT_HOOKS": "1"}, []string{"--accept-hooks", "hooks", "run-event", "on_session_start"}, allowlist.ViaAcceptHooksFlag},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHookHarness(t, tt.cfg, false)
			for k, v := range tt.env {
				h.env[k] = v
			}
			if code := h.run(tt.args...); code != 0 {
				t.Fatalf("exit %d: %s", code, h.err)
			}
			entries := h.entries(t)
			if tt.wantVia == "" {
				if len(entries) != 0 || len(h.runner.requests) != 0 {
					t.Errorf("approved %v and ran %d without consent", entries, len(h.runner.requests))
				}
				for _, way := range []string{"--accept-hooks", "HERMES_ACCEPT_HOOKS=1", "hooks_auto_accept: true", `"~/hook.sh start"`} {
					if !strings.Contains(h.err.String(), way) {
						t.Errorf("warning lacks %q: %s", way, h.err)
					}
				}
				return
			}
			if len(entries) != 1 || entries[0].ApprovedVia != tt.wantVia || entries[0].ScriptSHA256 == "" {
				t.Errorf("entries = %+v, want one approved_via %s with a sha256", entries, tt.wantVia)
			}
			if len(h.runner.requests) != 1 {
				t.Errorf("ran %d times, want 1", len(h.runner.requests))
			}
			if h.err.Len() != 0 {
				t.Errorf("stderr: %s", h.err)
			}
		})
	}
}

func TestRunEventPrompt(t *testing.T) {
	h := newHookHarness(t, observerCfg, true)
	h.prompter.confirms = []bool{false}
	if code := h.run("hooks", "run-event", "on_session_start"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	out := h.out.String()
	for _, want := range []string{"event:   on_session_start", "command: ~/hook.sh start",
		"script:  " + filepath.Join(h.home, "hook.sh"),
		"Commands run with your full user credentials. Only approve commands you trust.",
		"skipped (not approved)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if len(h.runner.requests) != 0 || len(h.entries(t)) != 0 {
		t.Fatal("a refused hook ran or was approved")
	}

	h.prompter.confirms = []bool{true}
	if code := h.run("hooks", "run-event", "on_session_start"); code != 0 {
		t.Fatalf("exit %d: %s", code, h.err)
	}
	if e := h.entries(t); len(e) != 1 || e[0].ApprovedVia != allowlist.ViaPrompt {
		t.Errorf("entries = %+v, want one approved_via prompt", e)
	}
	if len(h.runner.requests) != 1 {
		t.Errorf("ran %d times after yes, want 1", len(h.runner.requests))
	}
	// Approved now: no more questions.
	if code := h.run("hooks", "run-event", "on_session_start"); code != 0 || len(h.prompter.asked) != 2 {
		t.Errorf("exit %d, prompts %q; want no third prompt", code, h.prompter.asked)
	}
}

func TestRunEventExitCode(t *testing.T) {
	cfg := "hooks:\n  pre_tool_call:\n    - command: \"~/hook.sh guard\"\n"
	tests := []struct {
		exit     int
		flag     bool
		wantCode int
	}{{2, true, ExitBlocked}, {2, false, ExitOK}, {0, true, ExitOK}, {1, true, ExitOK}}
	for _, tt := range tests {
		h := newHookHarness(t, cfg, false)
		h.env["HERMES_ACCEPT_HOOKS"] = "1"
		code := tt.exit
		h.runner.result = shell.Result{ExitCode: &code, Stderr: "nope"}
		args := []string{"hooks", "run-event", "pre_tool_call"}
		if tt.flag {
			args = append(args, "--exit-code")
		}
		if got := h.run(args...); got != tt.wantCode {
			t.Errorf("hook exit %d, --exit-code %v: exit %d, want %d", tt.exit, tt.flag, got, tt.wantCode)
		}
	}
}

func TestRunEventSafeMode(t *testing.T) {
	h := newHookHarness(t, observerCfg, false)
	h.env["HERMES_SAFE_MODE"] = "yes"
	if code := h.run("--accept-hooks", "hooks", "run-event", "on_session_start", "--json"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(h.err.String(), "HERMES_SAFE_MODE"); n != 1 {
		t.Errorf("HERMES_SAFE_MODE said %d times, want once: %s", n, h.err)
	}
	if len(h.runner.requests) != 0 || len(h.entries(t)) != 0 {
		t.Error("safe mode ran or approved a hook")
	}
	if !strings.Contains(h.out.String(), `"skip_reason": "safe mode"`) {
		t.Errorf("JSON lacks the safe mode skip:\n%s", h.out)
	}
	if _, err := os.Stat(filepath.Join(h.home, "logs")); !os.IsNotExist(err) {
		t.Error("safe mode wrote the audit log")
	}
}

func TestRunEventJSONKeys(t *testing.T) {
	h := newHookHarness(t, observerCfg, false)
	h.env["HERMES_ACCEPT_HOOKS"] = "1"
	if code := h.run("hooks", "run-event", "on_session_start", "--json"); code != 0 {
		t.Fatalf("exit %d", code)
	}
	keys := func(data []byte) []string {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("not a JSON object: %v\n%s", err, data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		var order []string
		_, _ = dec.Token()
		for dec.More() {
			tok, _ := dec.Token()
			order = append(order, tok.(string))
			var skip json.RawMessage
			_ = dec.Decode(&skip)
		}
		return order
	}
	want := []string{"event", "hermes_home", "config_path", "hooks", "outcome", "webhooks", "diagnostics"}
	if got := keys(h.out.Bytes()); !slices.Equal(got, want) {
		t.Errorf("top-level keys %q, want %q", got, want)
	}
	var out struct {
		Hooks []json.RawMessage `json:"hooks"`
	}
	_ = json.Unmarshal(h.out.Bytes(), &out)
	wantHook := []string{"kind", "command", "status", "skip_reason", "exit_code", "timed_out", "error", "elapsed_seconds",
		"stdout", "stderr", "stdout_truncated", "stderr_truncated", "parsed", "warnings"}
	if len(out.Hooks) != 1 {
		t.Fatalf("%d hooks", len(out.Hooks))
	}
	if got := keys(out.Hooks[0]); !slices.Equal(got, wantHook) {
		t.Errorf("hook keys %q, want %q", got, wantHook)
	}
}
