package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNewCmdDoctorFlags(t *testing.T) {
	tests := []struct {
		args         []string
		wantJSON     bool
		wantParallel int
		wantPython   string
		wantErr      bool
	}{
		{args: nil},
		{args: []string{"--json"}, wantJSON: true},
		{args: []string{"--parallel", "3"}, wantParallel: 3},
		{args: []string{"--python", "/opt/py3"}, wantPython: "/opt/py3"},
		{args: []string{"--parallel", "-1"}, wantErr: true},
		{args: []string{"--parallel", "many"}, wantErr: true},
		{args: []string{"extra"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got := parsed(t, newCmdDoctor, tt.wantErr, tt.args...)
			if !tt.wantErr && (got.JSON != tt.wantJSON || got.Parallel != tt.wantParallel || got.Python != tt.wantPython) {
				t.Errorf("got %+v", got)
			}
		})
	}
}

// doctorHarness: one approved healthy hook and one that is not approved
// (whose run would leave a file behind).
func doctorHarness(t *testing.T) *cliHarness {
	t.Helper()
	h := newHarness(t)
	h.write(t, "ok.sh", "#!/bin/sh\necho '{}'\n", 0o755)
	h.write(t, "new.sh", "#!/bin/sh\ntouch \"$0.ran\"\n", 0o755)
	h.write(t, "config.yaml", `hooks:
  on_session_start:
    - command: ~/.hermes/ok.sh
`, 0o644)
	h.acceptAll(t)
	h.write(t, "config.yaml", `hooks:
  on_session_start:
    - command: ~/.hermes/ok.sh
    - command: ~/.hermes/new.sh
`, 0o644)
	return h
}

func TestDoctorRunHuman(t *testing.T) {
	for _, tty := range []bool{false, true} {
		h := doctorHarness(t)
		h.ios.SetTTY(tty)
		if code := h.run("hooks", "doctor"); code != ExitFailed {
			t.Errorf("tty %v: exit %d, want 1 (a hook is not approved)", tty, code)
		}
		out := h.out.String()
		plain := withoutSGR(out)
		for _, want := range []string{
			"HERMES_HOME: " + h.home + "\n",
			"on_session_start  ~/.hermes/ok.sh\n  ✓ script " + h.home + "/ok.sh exists and can run\n",
			"  ✗ not allowlisted — hook will NOT fire",
			"  ℹ skipped JSON smoke test (not approved: doctor never runs an unapproved hook)\n",
			"\n✗ 1 issue(s) found.\n",
		} {
			if !strings.Contains(plain, want) {
				t.Errorf("tty %v: stdout lacks %q:\n%s", tty, want, plain)
			}
		}
		if hasSGR := strings.Contains(out, "\x1b["); hasSGR != tty {
			t.Errorf("tty %v: colour codes present: %v", tty, hasSGR)
		}
		if tty && !strings.Contains(out, "\x1b[31m✗\x1b[0m not allowlisted") {
			t.Errorf("at a terminal the failure icon is not red: %q", out)
		}
		if _, err := os.Stat(filepath.Join(h.home, "new.sh.ran")); err == nil {
			t.Error("doctor ran the unapproved hook")
		}
	}
}

func TestDoctorRunHealthyExitsZero(t *testing.T) {
	h := newHarness(t)
	h.write(t, "ok.sh", "#!/bin/sh\nexit 0\n", 0o755)
	h.write(t, "config.yaml", "hooks:\n  on_session_start:\n    - command: ~/.hermes/ok.sh\n", 0o644)
	h.acceptAll(t)
	if code := h.run("hooks", "doctor"); code != 0 {
		t.Fatalf("exit %d: %s%s", code, h.out, h.err)
	}
	if !strings.HasSuffix(h.out.String(), "\n✓ All shell hooks look healthy.\n") {
		t.Errorf("stdout:\n%s", h.out)
	}
}

func TestDoctorRunJSON(t *testing.T) {
	h := doctorHarness(t)
	h.write(t, "config.yaml", `hooks:
  on_session_start:
    - command: ~/.hermes/ok.sh
    - command: ~/.hermes/new.sh
  on_sesion_end: []
`, 0o644)
	if code := h.run("hooks", "doctor", "--json"); code != ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	var got struct {
		HermesHome  string  `json:"hermes_home"`
		ConfigPath  *string `json:"config_path"`
		Hooks       []map[string]json.RawMessage
		Diagnostics []map[string]any `json:"diagnostics"`
		Problems    int              `json:"problems"`
		Healthy     *bool            `json:"healthy"`
	}
	if err := json.Unmarshal(h.out.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, h.out)
	}
	if got.HermesHome != h.home || got.ConfigPath == nil || got.Healthy == nil || *got.Healthy {
		t.Errorf("header: %+v", got)
	}
	// The config diagnostic (unknown event) and the unapproved hook.
	if got.Problems != 2 || len(got.Diagnostics) != 1 {
		t.Errorf("problems %d, diagnostics %v; want 2 and 1", got.Problems, got.Diagnostics)
	}
	if len(got.Hooks) != 2 {
		t.Fatalf("%d hooks", len(got.Hooks))
	}
	for i, want := range []struct {
		keys     string
		problems string
	}{{"checks command event kind problems", "0"}, {"checks command event kind problems", "1"}} {
		var keys []string
		for k := range got.Hooks[i] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if strings.Join(keys, " ") != want.keys || string(got.Hooks[i]["problems"]) != want.problems {
			t.Errorf("hook %d: keys %v problems %s", i, keys, got.Hooks[i]["problems"])
		}
	}
	// Warnings still reach stderr in JSON mode.
	if !strings.Contains(h.err.String(), "on_sesion_end") {
		t.Errorf("stderr lacks the config warning: %q", h.err)
	}
}
