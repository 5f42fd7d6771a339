package hooks

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestDiffScript(t *testing.T) {
	const cfg = "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n"
	tests := []struct {
		name string
		// prepare runs after the hook is approved (unless agent is set).
		prepare     func(t *testing.T, h *trustHome)
		agent       bool // approved by the Python agent instead (no hash)
		unapproved  bool
		wantErr     error
		wantChanged bool
		wantDiff    []string // lines the unified diff must hold
	}{
		{name: "unchanged", prepare: func(*testing.T, *trustHome) {}},
		{name: "touched", prepare: func(_ *testing.T, h *trustHome) { h.touch("hook.sh", laterMtime) }},
		{name: "edited", prepare: func(_ *testing.T, h *trustHome) {
			h.write("hook.sh", "#!/bin/sh\necho v2\n", laterMtime)
		}, wantChanged: true, wantDiff: []string{"--- approved (", "+++ ", "@@ -1,2 +1,2 @@", " #!/bin/sh", "-echo v1", "+echo v2"}},
		{name: "not approved", unapproved: true, wantErr: ErrNotApproved},
		{name: "agent approval has no hash", agent: true, wantErr: ErrNoSnapshot},
		{name: "snapshot gone", prepare: func(t *testing.T, h *trustHome) {
			if err := os.RemoveAll(h.path("shell-hooks-snapshots")); err != nil {
				t.Fatal(err)
			}
		}, wantErr: ErrNoSnapshot},
		{name: "script gone", prepare: func(t *testing.T, h *trustHome) {
			if err := os.Remove(h.path("hook.sh")); err != nil {
				t.Fatal(err)
			}
		}, wantErr: ErrScriptMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTrustHome(t, cfg, map[string]string{"hook.sh": hookV1})
			switch {
			case tt.agent:
				h.writeAllowlist(`{"approvals": [{"approved_at": "2020-01-02T00:00:00", "command": "~/hook.sh",
					"event": "on_session_start", "script_mtime_at_approval": "2020-01-01T00:00:00"}]}`)
			case !tt.unapproved:
				h.approveAll()
				tt.prepare(t, h)
			}
			s, list := h.load()
			d, err := s.DiffScript(s.Inspect(s.Parsed.Specs[0], list))
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("error %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "~/hook.sh") && !strings.Contains(err.Error(), h.path("hook.sh")) {
					t.Errorf("error %q names neither the command nor the script", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Changed != tt.wantChanged || (d.Unified != "") != tt.wantChanged {
				t.Errorf("changed %v, diff %q; want changed %v", d.Changed, d.Unified, tt.wantChanged)
			}
			lines := strings.Split(d.Unified, "\n")
			for _, want := range tt.wantDiff {
				found := false
				for _, l := range lines {
					if strings.HasPrefix(l, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("diff lacks a line starting %q:\n%s", want, d.Unified)
				}
			}
		})
	}
}
