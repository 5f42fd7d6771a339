// Package guard is the companion binary hermes-guard (SPEC §17): the
// agent runs `hermes-guard --event E [--fail-closed] -- COMMAND…` in place
// of a protected hook, and the guard runs COMMAND only when the one trust
// decision (package trust) allows it, exactly as the bare hook would have
// run. It runs on every tool call, so it imports no CLI, config or matcher
// engine: trust, audit, answer, allowlist and shell only.
package guard

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// Name is the guard's file name, installed beside hermes.
const Name = "hermes-guard"

// NoAuditEnv, set to "1" by hermes when it fires a protected hook itself
// (run-event, test, the policy cases, doctor), tells the guard not to
// append an audit line: hermes records its own (SPEC §10.4, §17). The
// guard removes it from the hook's environment.
const NoAuditEnv = "HERMES_GUARD_NO_AUDIT"

// Flags of the wrapped form.
const (
	flagEvent      = "--event"
	flagFailClosed = "--fail-closed"
)

// Invocation is the guard's argv read: its flags and the command it
// guards.
type Invocation struct {
	Guard      string // argv[0] as written
	Event      string
	FailClosed bool
	// Extra holds the values of flags added by dialects (SPEC §19):
	// "--dialect", "--project-dir", "--if", each as given.
	Extra map[string]string
	// Inner is COMMAND, the argv after "--".
	Inner []string
}

// flag is one option of the guard: whether it takes a value and how it is
// stored. A dialect adds its options here.
type flag struct {
	value bool
	set   func(inv *Invocation, v string)
}

var flags = map[string]flag{
	flagEvent:       {value: true, set: func(inv *Invocation, v string) { inv.Event = v }},
	flagFailClosed:  {set: func(inv *Invocation, _ string) { inv.FailClosed = true }},
	"--dialect":     {value: true, set: setExtra("--dialect")},
	"--project-dir": {value: true, set: setExtra("--project-dir")},
	"--if":          {value: true, set: setExtra("--if")},
}

func setExtra(name string) func(*Invocation, string) {
	return func(inv *Invocation, v string) {
		if inv.Extra == nil {
			inv.Extra = map[string]string{}
		}
		inv.Extra[name] = v
	}
}

// IsGuard reports whether word (a command's first word) names the guard.
func IsGuard(word string) bool { return filepath.Base(word) == Name }

// Parse reads a guard's argv (argv[0] included). Flags come before "--",
// as "--flag value" or "--flag=value"; COMMAND after it must not be empty.
// The Invocation is filled as far as it was read, so a caller can still
// honour --fail-closed when the rest is wrong.
func Parse(argv []string) (Invocation, error) {
	var inv Invocation
	if len(argv) == 0 {
		return inv, errors.New("empty argv")
	}
	inv.Guard = argv[0]
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		f, ok := flags[name]
		if !ok || !strings.HasPrefix(a, "--") {
			return inv, fmt.Errorf("unknown option %q (expected --event E [--fail-closed] -- COMMAND…)", a)
		}
		switch {
		case f.value && !hasVal:
			if i+1 >= len(argv) || argv[i+1] == "--" {
				return inv, fmt.Errorf("option %s needs a value", name)
			}
			i++
			val = argv[i]
		case !f.value && hasVal:
			return inv, fmt.Errorf("option %s takes no value", name)
		}
		f.set(&inv, val)
	}
	if i >= len(argv) {
		return inv, errors.New(`no "--" before the command to run`)
	}
	inv.Inner = argv[i+1:]
	switch {
	case inv.Event == "":
		return inv, errors.New("no --event")
	case len(inv.Inner) == 0:
		return inv, errors.New(`no command after "--"`)
	}
	return inv, nil
}

// ParseCommand reads a hook's command as the agent tokenises it (leading
// "~" expanded with home): ok is false when it is not a guard invocation.
func ParseCommand(command, home string) (Invocation, bool) {
	if !strings.Contains(command, Name) && !strings.ContainsAny(command, `'"\$`) {
		// The guard's name cannot appear once quotes and escapes are
		// gone: not tokenised for nothing (every hook of a config is
		// asked at load).
		return Invocation{}, false
	}
	argv, err := shell.Argv(command, home)
	if err != nil || !IsGuard(argv[0]) {
		return Invocation{}, false
	}
	inv, err := Parse(argv)
	return inv, err == nil
}

// Wrap is the command protect writes (SPEC §17): the guard, its flags, and
// the command as written with a leading "~" written as ${HOME}, so the
// §13 "~" rule still holds behind "--" (the agent expands only the whole
// command's leading "~").
func Wrap(guardPath, event string, failClosed bool, written string) string {
	var b strings.Builder
	b.WriteString(shell.Quote(guardPath))
	b.WriteString(" " + flagEvent + " " + shell.Quote(event))
	if failClosed {
		b.WriteString(" " + flagFailClosed)
	}
	b.WriteString(" -- ")
	b.WriteString(HomeForTilde(written))
	return b.String()
}

// HomeForTilde writes a leading "~" or "~/" of a command as ${HOME}; a
// "~user" is left alone (the agent expands it only at the very start).
func HomeForTilde(written string) string {
	if written == "~" || strings.HasPrefix(written, "~/") {
		return "${HOME}" + written[1:]
	}
	return written
}

// Unwrap is the inner command of a wrapped command as written, ok false
// when written is not a guard invocation. It splits at the first " -- "
// whose prefix reads as the guard and its flags.
func Unwrap(written string) (inner string, inv Invocation, ok bool) {
	for at := 0; ; {
		i := strings.Index(written[at:], " -- ")
		if i < 0 {
			return "", Invocation{}, false
		}
		i += at
		words, err := shell.Split(written[:i])
		if err == nil && len(words) > 0 && IsGuard(words[0]) {
			rest := strings.TrimLeft(written[i+4:], " ")
			if inv, err := Parse(append(words, "--", "x")); err == nil && rest != "" {
				inv.Inner = nil
				return rest, inv, true
			}
		}
		at = i + 1
	}
}
