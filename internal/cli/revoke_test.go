package cli

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestNewCmdRevokeFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    revokeOptions
		wantErr string
	}{
		{args: []string{"/bin/echo hi"}, want: revokeOptions{Command: "/bin/echo hi"}},
		{args: []string{"--json", "x"}, want: revokeOptions{Command: "x", JSON: true}},
		{args: nil, wantErr: "needs a command"},
		{args: []string{"a", "b"}, wantErr: "needs a command"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, err := parseArgs(t, newCmdRevoke, tt.args...)
			if tt.wantErr != "" {
				var usage *UsageError
				if !errors.As(err, &usage) || !strings.Contains(err.Error(), tt.wantErr) || got != nil {
					t.Fatalf("error = %v, want a usage error containing %q before runF", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.f = nil
			if *got != tt.want {
				t.Errorf("options = %+v, want %+v", *got, tt.want)
			}
		})
	}
	cmd := newCmdRevoke(newHarness(t).f, nil)
	if strings.Join(cmd.Aliases, ",") != "remove,rm" {
		t.Errorf("aliases = %q, want remove and rm", cmd.Aliases)
	}
}

const revokeAllowlist = `{
  "approvals": [
    {
      "approved_at": "2026-01-02T03:04:05Z",
      "command": "/bin/echo a",
      "event": "pre_tool_call"
    },
    {
      "approved_at": "2026-01-02T03:04:06Z",
      "command": "/bin/echo b",
      "event": "pre_tool_call",
      "x_note": "kept"
    },
    {
      "approved_at": "2026-01-02T03:04:07Z",
      "command": "/bin/echo a",
      "event": "post_tool_call"
    }
  ]
}`

func TestRevokeRunRemovesEveryEvent(t *testing.T) {
	h := newHarness(t)
	h.write(t, "shell-hooks-allowlist.json", revokeAllowlist, 0o600)
	if err := revokeRun(nil, &revokeOptions{f: h.f, Command: "/bin/echo a"}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "approvals": [
    {
      "approved_at": "2026-01-02T03:04:06Z",
      "command": "/bin/echo b",
      "event": "pre_tool_call",
      "x_note": "kept"
    }
  ]
}`
	if got, _ := os.ReadFile(h.allowlistPath()); string(got) != want {
		t.Errorf("allowlist =\n%s\nwant\n%s", got, want)
	}
	out := h.out.String()
	for _, s := range []string{"Removed 2 allowlist entries for: /bin/echo a\n", "Allowlist: " + h.allowlistPath() + "\n",
		"keep the hooks they registered"} {
		if !strings.Contains(out, s) {
			t.Errorf("stdout lacks %q:\n%s", s, out)
		}
	}
	if h.err.Len() > 0 {
		t.Errorf("stderr = %q", h.err)
	}
}

func TestRevokeRunNothingMatched(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		h := newHarness(t)
		p := h.write(t, "shell-hooks-allowlist.json", revokeAllowlist, 0o600)
		st, _ := os.Stat(p)
		err := revokeRun(nil, &revokeOptions{f: h.f, Command: "/bin/echo A", JSON: asJSON})
		if !errors.Is(err, SilentError) {
			t.Fatalf("json=%t: error = %v, want the silent error (exit 1)", asJSON, err)
		}
		if want := "No allowlist entry found for command: /bin/echo A\nAllowlist: " + p + "\n"; h.err.String() != want {
			t.Errorf("json=%t: stderr = %q, want %q", asJSON, h.err, want)
		}
		got, _ := os.ReadFile(p)
		st2, _ := os.Stat(p)
		if string(got) != revokeAllowlist || !st2.ModTime().Equal(st.ModTime()) {
			t.Errorf("json=%t: the allowlist was rewritten", asJSON)
		}
		if !asJSON {
			if h.out.Len() > 0 {
				t.Errorf("stdout = %q, want nothing", h.out)
			}
			continue
		}
		var j revokeJSON
		if err := json.Unmarshal(h.out.Bytes(), &j); err != nil {
			t.Fatalf("stdout is not JSON: %v\n%s", err, h.out)
		}
		if j.Removed != 0 || j.Command != "/bin/echo A" || j.HermesHome != h.home || j.ConfigPath != nil {
			t.Errorf("JSON = %+v", j)
		}
	}
}

func TestRevokeRunJSON(t *testing.T) {
	h := newHarness(t)
	h.write(t, "shell-hooks-allowlist.json", revokeAllowlist, 0o600)
	if err := revokeRun(nil, &revokeOptions{f: h.f, Command: "/bin/echo b", JSON: true}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "hermes_home": "` + h.home + `",
  "config_path": null,
  "command": "/bin/echo b",
  "removed": 1
}
`
	if h.out.String() != want {
		t.Errorf("stdout =\n%s\nwant\n%s", h.out, want)
	}
}
