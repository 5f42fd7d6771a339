package hookspec

import (
	"testing"
)

// SPEC §13 rule 11: a command keeps how it was written beside what it
// expands to, so reports can show ${API_TOKEN} instead of the token.
func TestSpecKeepsTheCommandAsWritten(t *testing.T) {
	_, p := parseYAML(t, `anchors:
  cmd: &cmd "/h/alias.sh ${DB_PASSWORD}"
hooks:
  on_session_start:
    - command: "  /h/a.sh --token ${API_TOKEN}  "
    - command: "/h/b.sh --mode ${env:MODE}"
    - command: "/h/c.sh --plain"
    - command: "/h/d.sh ${MODE} ${github_key}"
    - command: *cmd
    - command: "/h/e.sh ${UNSET_VAR}"
`, map[string]string{"API_TOKEN": "s3cr3t", "MODE": "strict", "github_key": "k", "DB_PASSWORD": "pw"})
	want := []struct {
		command, shown, expanded string
		secret                   bool
	}{
		{"/h/a.sh --token s3cr3t", "/h/a.sh --token ${API_TOKEN}", "", true},
		{"/h/b.sh --mode strict", "/h/b.sh --mode ${env:MODE}", "/h/b.sh --mode strict", false},
		{"/h/c.sh --plain", "/h/c.sh --plain", "", false},
		{"/h/d.sh strict k", "/h/d.sh ${MODE} ${github_key}", "", true},
		{"/h/alias.sh pw", "/h/alias.sh ${DB_PASSWORD}", "", true},
		{"/h/e.sh", "/h/e.sh ${UNSET_VAR}", "/h/e.sh", false},
	}
	if len(p.Specs) != len(want) {
		t.Fatalf("%d specs, want %d: %v", len(p.Specs), len(want), p.Specs)
	}
	for i, w := range want {
		s := p.Specs[i]
		if s.Command != w.command || s.Shown() != w.shown || s.Expanded() != w.expanded || s.HasSecret() != w.secret {
			t.Errorf("spec %d: command %q shown %q expanded %q secret %v; want %q %q %q %v",
				i, s.Command, s.Shown(), s.Expanded(), s.HasSecret(), w.command, w.shown, w.expanded, w.secret)
		}
		if !s.Names(w.command) || !s.Names(w.shown) || s.Names("/h/other.sh") {
			t.Errorf("spec %d: Names does not take exactly both forms", i)
		}
	}
}
