package hookspec

import (
	"strings"
	"testing"
)

// replay: false marks a hook test --cases must not replay (SPEC §26); the
// key is accepted, a value that is not a boolean is a warning naming the
// field and line, and the hook is then replayed.
func TestReplayKey(t *testing.T) {
	_, p := parseYAML(t, `hooks:
  post_tool_call:
    - command: notify.sh
      replay: false
    - command: log.sh
      replay: true
    - command: plain.sh
    - command: typo.sh
      replay: "no"
`, nil)
	want := map[string]bool{"notify.sh": true, "log.sh": false, "plain.sh": false, "typo.sh": false}
	if len(p.Specs) != 4 {
		t.Fatalf("%d specs, want 4: %+v", len(p.Specs), p.Diagnostics)
	}
	for _, s := range p.Specs {
		if s.NoReplay != want[s.Command] {
			t.Errorf("%s: NoReplay %t, want %t", s.Command, s.NoReplay, want[s.Command])
		}
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Path != "hooks.post_tool_call[3].replay" || p.Diagnostics[0].Line != 9 ||
		!strings.Contains(p.Diagnostics[0].Message, "replay must be true or false") {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
}
