package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestNewCmdListFlags(t *testing.T) {
	tests := []struct {
		args     []string
		wantJSON bool
		wantErr  bool
	}{
		{args: nil},
		{args: []string{"--json"}, wantJSON: true},
		{args: []string{"extra"}, wantErr: true},
		{args: []string{"--bogus"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got := parsed(t, newCmdList, tt.wantErr, tt.args...)
			if !tt.wantErr && got.JSON != tt.wantJSON {
				t.Errorf("JSON = %t, want %t", got.JSON, tt.wantJSON)
			}
		})
	}
	if cmd := newCmdList(newHarness(t).f, nil); len(cmd.Aliases) != 1 || cmd.Aliases[0] != "ls" {
		t.Errorf("aliases = %q, want [ls]", cmd.Aliases)
	}
}

// listHarness is a home with hooks on three events (written out of order),
// one of them approved, and a config diagnostic on line 6.
func listHarness(t *testing.T) *cliHarness {
	t.Helper()
	h := newHarness(t)
	h.write(t, "agent-hooks/guard.sh", "#!/bin/sh\nexit 0\n", 0o755)
	h.write(t, "config.yaml", `hooks:
  pre_tool_call:
    - command: ~/.hermes/agent-hooks/guard.sh b
    - command: ~/.hermes/agent-hooks/guard.sh a
      matcher: terminal
      timeout: -5
  on_session_end:
    - command: ~/.hermes/agent-hooks/guard.sh end
`, 0o644)
	h.write(t, "shell-hooks-allowlist.json", `{"approvals": [
  {"approved_at": "2026-01-02T03:04:05Z", "command": "~/.hermes/agent-hooks/guard.sh a", "event": "pre_tool_call"}]}`, 0o600)
	return h
}

func TestListRunHumanOffTerminal(t *testing.T) {
	h := listHarness(t)
	if err := listRun(nil, &listOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	out := h.out.String()
	if strings.Contains(out, "\x1b[") {
		t.Errorf("colour codes off a terminal:\n%q", out)
	}
	for _, want := range []string{
		"HERMES_HOME: " + h.home + "\n",
		"Config: " + h.home + "/config.yaml\n",
		// Events sorted; hooks of an event in config order.
		"  on_session_end\n    ✗ not allowlisted  ~/.hermes/agent-hooks/guard.sh end\n",
		"  pre_tool_call\n    ✗ not allowlisted  ~/.hermes/agent-hooks/guard.sh b\n",
		"    ✓ allowed  ~/.hermes/agent-hooks/guard.sh a\n        matcher: terminal  timeout: 60s\n",
		"        approved_at: 2026-01-02T03:04:05Z\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "on_session_end") > strings.Index(out, "pre_tool_call") {
		t.Error("events are not sorted")
	}
	if strings.Index(out, "guard.sh b") > strings.Index(out, "guard.sh a") {
		t.Error("hooks are not in config order")
	}
	if want := h.home + "/config.yaml:6: hooks.pre_tool_call[1].timeout: "; !strings.Contains(h.err.String(), want) {
		t.Errorf("stderr = %q, want the diagnostic %q", h.err, want)
	}
	if strings.Contains(out, "timeout: -5") {
		t.Error("a diagnostic leaked into stdout")
	}
}

func TestListRunHumanAtTerminal(t *testing.T) {
	h := listHarness(t)
	h.ios.SetTTY(true)
	if err := listRun(nil, &listOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	out := h.out.String()
	for _, want := range []string{"\x1b[32m✓\x1b[0m allowed", "\x1b[31m✗\x1b[0m not allowlisted", "\x1b[1mShell hooks\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%q", want, out)
		}
	}

	// --no-color / NO_COLOR: symbols without colour codes.
	h = listHarness(t)
	h.ios.SetTTY(true)
	h.ios.SetNoColor(true)
	if err := listRun(nil, &listOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	if out := h.out.String(); strings.Contains(out, "\x1b[") || !strings.Contains(out, "✓ allowed") {
		t.Errorf("with colour off: %q", out)
	}
}

func TestListRunJSON(t *testing.T) {
	for _, tty := range []bool{false, true} {
		h := listHarness(t)
		h.ios.SetTTY(tty)
		before, _ := os.ReadFile(h.allowlistPath())
		if err := listRun(nil, &listOptions{f: h.f, JSON: true}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(h.out.String(), "\x1b[") {
			t.Errorf("tty=%t: colour codes in JSON", tty)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
			t.Fatalf("stdout is not one JSON object: %v\n%s", err, h.out)
		}
		for _, key := range []string{"hermes_home", "config_path", "shell_hooks", "gateway_hooks", "outbound_webhooks", "diagnostics"} {
			if _, ok := got[key]; !ok {
				t.Errorf("JSON lacks %q", key)
			}
		}
		var hooksOut []shellHookJSON
		if err := json.Unmarshal(got["shell_hooks"], &hooksOut); err != nil {
			t.Fatal(err)
		}
		if len(hooksOut) != 3 || hooksOut[0].Command != "~/.hermes/agent-hooks/guard.sh b" || hooksOut[2].Event != "on_session_end" {
			t.Fatalf("shell_hooks not in config order: %+v", hooksOut)
		}
		a := hooksOut[1]
		if !a.Approved || a.ApprovedAt == nil || *a.ApprovedAt != "2026-01-02T03:04:05Z" || a.Drift == nil ||
			!a.Trusted || !a.Executable || a.Matcher == nil || *a.Matcher != "terminal" || a.Timeout != 60 {
			t.Errorf("approved hook = %+v", a)
		}
		if b := hooksOut[0]; b.Approved || b.ApprovedAt != nil || b.Drift != nil || b.Trusted {
			t.Errorf("unapproved hook = %+v", b)
		}
		var diags []struct {
			Path string `json:"path"`
			File string `json:"file"`
			Line int    `json:"line"`
		}
		if err := json.Unmarshal(got["diagnostics"], &diags); err != nil {
			t.Fatal(err)
		}
		if len(diags) != 1 || diags[0].Path != "hooks.pre_tool_call[1].timeout" || diags[0].Line != 6 || diags[0].File != h.home+"/config.yaml" {
			t.Errorf("diagnostics = %+v", diags)
		}
		// Warnings go to stderr in JSON mode too.
		if !strings.Contains(h.err.String(), "hooks.pre_tool_call[1].timeout") {
			t.Errorf("stderr = %q", h.err)
		}
		// list never writes the allowlist.
		if after, _ := os.ReadFile(h.allowlistPath()); string(after) != string(before) {
			t.Error("list changed the allowlist")
		}
	}
}

func TestListWithoutConfigSaysWhereItLooked(t *testing.T) {
	h := newHarness(t)
	if err := listRun(nil, &listOptions{f: h.f}); err != nil {
		t.Fatal(err)
	}
	want := "Config: none found (looked at " + h.home + "/config.yaml, " + h.home + "/cli-config.yaml)\n"
	if !strings.Contains(h.out.String(), want) || !strings.Contains(h.out.String(), "No shell hooks configured.") {
		t.Errorf("stdout = %q, want %q", h.out, want)
	}
	if h.err.Len() > 0 {
		t.Errorf("stderr = %q", h.err)
	}
}

func TestListProfileFromFlag(t *testing.T) {
	h := newHarness(t)
	h.write(t, "profiles/work/config.yaml", "hooks:\n  on_session_start:\n    - command: /bin/echo work\n", 0o644)
	if code := h.run("-p", "work", "hooks", "list"); code != ExitOK {
		t.Fatalf("exit code = %d; stderr: %s", code, h.err)
	}
	if out := h.out.String(); !strings.Contains(out, "HERMES_HOME: "+h.home+"/profiles/work\nProfile: work\n") ||
		!strings.Contains(out, "/bin/echo work") {
		t.Errorf("stdout = %q", out)
	}
	if code := h.run("--profile", "nope", "hooks", "list"); code != ExitUsage {
		t.Fatalf("exit code = %d, want %d", code, ExitUsage)
	}
	if want := `profile "nope" does not exist (looked in ` + h.home + "/profiles/nope)"; !strings.Contains(h.err.String(), want) {
		t.Errorf("stderr = %q, want %q", h.err, want)
	}
}
