package doctor

import (
	"os"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/trust"
)

func TestShellOperators(t *testing.T) {
	for cmd, want := range map[string]string{
		"guard.sh --strict":                   "",
		"jq .x | xargs echo":                  "|",
		"a && b || c; d":                      "&& || ;",
		"a > out 2>&1 < in":                   "> <",
		"echo $(date) `id`":                   "$( `",
		"sh -c 'a | b && c > d'":              "",
		`sh -c "a | b; $(c)"`:                 "",
		`echo a\|b \; \>`:                     "",
		`echo "it's" | cat`:                   "|",
		`python3 -c 'print("a|b")' && echo x`: "&&",
		"echo $HOME ${X}":                     "",
	} {
		if got := strings.Join(ShellOperators(cmd), " "); got != want {
			t.Errorf("ShellOperators(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestIsInterpreter(t *testing.T) {
	for prog, want := range map[string]bool{
		"sh": true, "/bin/bash": true, "python3": true, "python3.12": true, "/usr/bin/env": true,
		"node": true, "perl5.36": true, "cat": false, "jq": false, "/usr/bin/shred": false, "sh5x": false,
	} {
		if got := isInterpreter(prog); got != want {
			t.Errorf("isInterpreter(%q) = %v, want %v", prog, got, want)
		}
	}
}

// The executable check is about what runs: the script, an interpreter's
// script, or the program when neither (SPEC §20).
func TestExecutableChecks(t *testing.T) {
	dir := t.TempDir()
	notes := dir + "/NOTES.md"
	if err := os.WriteFile(notes, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		command string
		want    []string // "status: message fragment"
	}{
		{"cat NOTES.md", []string{"ok: program cat ("}},
		{"cat " + notes, []string{"ok: program cat (", "info: " + notes + " is an argument of cat, not a script it runs"}},
		{"cat " + dir + "/missing.md", []string{"ok: program cat (", "warn: " + dir + "/missing.md is run by cat as an argument, and cannot be read"}},
		{"sh " + notes, []string{"ok: script " + notes + " exists and can run"}},
		{"/usr/bin/env python3 " + dir + "/x.py", []string{"fail: script missing or not executable"}},
		{"no-such-program-hermes " + notes, []string{"fail: program \"no-such-program-hermes\" is not found on PATH", "info: "}},
		{"no-such-program-hermes", []string{"fail: program \"no-such-program-hermes\" is not found on PATH"}},
	} {
		t.Run(tt.command, func(t *testing.T) {
			s := hooks.Setup{Config: &config.File{Settings: config.DefaultSettings()}}
			h := s.InspectWith(hookspec.Spec{Event: "on_session_start", Command: tt.command}, nil, trust.Now())
			checks := executableChecks(h)
			if len(checks) != len(tt.want) {
				t.Fatalf("checks = %+v, want %d", checks, len(tt.want))
			}
			for i, c := range checks {
				if got := c.Status + ": " + c.Message; !strings.HasPrefix(got, tt.want[i]) {
					t.Errorf("check %d = %q, want it to start with %q", i, got, tt.want[i])
				}
				if strings.Contains(c.Message, "script /") && strings.Contains(tt.command, "cat") {
					t.Errorf("cat's argument called a script: %q", c.Message)
				}
			}
		})
	}
}
