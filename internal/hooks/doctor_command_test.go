package hooks

import (
	"strings"
	"testing"
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
