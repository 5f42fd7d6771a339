package claude

import (
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// A Wrap is the guard invocation a dialect hook is written as (SPEC §17,
// §19): `<guard> --event E [--fail-closed] --dialect claude [--project-dir
// DIR] [--if RULE] -- ARGV…`.
type Wrap struct {
	Guard      string
	Event      string
	FailClosed bool
	ProjectDir string
	If         string
}

// Argv is the guard's full argv around inner (ShellArgv of a command
// hook, or an exec-form hook's args).
func (w Wrap) Argv(inner []string) []string {
	a := []string{w.Guard, "--event", w.Event}
	if w.FailClosed {
		a = append(a, "--fail-closed")
	}
	a = append(a, "--dialect", "claude")
	if w.ProjectDir != "" {
		a = append(a, "--project-dir", w.ProjectDir)
	}
	if w.If != "" {
		a = append(a, "--if", w.If)
	}
	a = append(a, "--")
	return append(a, inner...)
}

// Command is argv as one config command: each word quoted once for the
// agent's shlex split (§4).
func Command(argv []string) string {
	q := make([]string, len(argv))
	for i, w := range argv {
		q[i] = shell.Quote(w)
	}
	return strings.Join(q, " ")
}
