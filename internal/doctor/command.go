package doctor

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// ShellOperators lists the shell operators written outside quotes in
// command, in order of appearance, each once: hooks run without a shell,
// so each reaches the program as an argument (SPEC §20). Inside single or
// double quotes, or after a backslash, nothing counts.
func ShellOperators(command string) []string {
	var ops []string
	seen := map[string]bool{}
	add := func(op string) {
		if !seen[op] {
			seen[op] = true
			ops = append(ops, op)
		}
	}
	var quote byte
	for i := 0; i < len(command); i++ {
		c := command[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '\\':
			i++
		case c == '\'' || c == '"':
			quote = c
		case c == '|' && i+1 < len(command) && command[i+1] == '|':
			add("||")
			i++
		case c == '|':
			add("|")
		case c == '&' && i+1 < len(command) && command[i+1] == '&':
			add("&&")
			i++
		case c == ';':
			add(";")
		case c == '>':
			add(">")
		case c == '<':
			add("<")
		case c == '$' && i+1 < len(command) && command[i+1] == '(':
			add("$(")
			i++
		case c == '`':
			add("`")
		}
	}
	return ops
}

// operatorCheck fails a command with shell operators outside quotes.
func operatorCheck(h hooks.ShellHook) (Check, bool) {
	ops := ShellOperators(h.Command)
	if len(ops) == 0 {
		return Check{}, false
	}
	return Check{"command", CheckFail, fmt.Sprintf("the command has shell operators outside quotes (%s): hooks run without a shell, so they are passed as arguments; wrap it as sh -c '…' or move it into a script",
		strings.Join(ops, " "))}, true
}

// interpreters are the programs whose argument is the script they run
// (SPEC §20); env runs the next word.
var interpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "python": true, "python3": true,
	"node": true, "ruby": true, "perl": true, "env": true}

// isInterpreter reports a program that runs a script given as an
// argument: the list above, and versioned names (python3.12, perl5.36).
func isInterpreter(program string) bool {
	base := filepath.Base(program)
	if interpreters[base] {
		return true
	}
	name := strings.TrimRight(base, "0123456789.")
	return name != base && interpreters[name]
}

// executableChecks is doctor's "executable" check. When the program (the
// first word) is the §4 script or an interpreter handed it, the check is
// about the script; otherwise it is about the program, which is what runs
// (`cat NOTES.md` runs cat): the script word is an argument, which drift
// and the pin still follow, but never "a script that can run".
func executableChecks(h hooks.ShellHook) []Check {
	if h.NoScript {
		// A pipeline of programs (SPEC §19): no script to check; the
		// dialect check says what is approved.
		return nil
	}
	if h.ParseErr == nil && h.FirstWord && len(h.Argv) > 0 && !strings.Contains(h.Argv[0], "/") {
		// A bare first word is a program found on PATH, not a script of
		// the user's (`cat NOTES.md`).
		if h.ExecErr != nil {
			return []Check{{"executable", CheckFail, fmt.Sprintf("program %q is not found on PATH (or not executable there): install it or give its full path", h.Argv[0])}}
		}
		return []Check{{"executable", CheckOK, fmt.Sprintf("program %s (%s) found on PATH and can run", h.Argv[0], h.Script)}}
	}
	if h.ParseErr != nil || len(h.Argv) == 0 || h.FirstWord || isInterpreter(h.Argv[0]) {
		if h.ExecErr != nil {
			return []Check{{"executable", CheckFail, fmt.Sprintf("script missing or not executable: %v", h.ExecErr)}}
		}
		return []Check{{"executable", CheckOK, fmt.Sprintf("script %s exists and can run", h.Script)}}
	}
	program := h.Argv[0]
	out := []Check{programCheck(program)}
	if h.ExecErr != nil {
		out = append(out, Check{"executable", CheckWarn, fmt.Sprintf("%s is run by %s as an argument, and cannot be read: %v", h.Script, filepath.Base(program), h.ExecErr)})
	} else {
		out = append(out, Check{"executable", CheckInfo, fmt.Sprintf("%s is an argument of %s, not a script it runs; approval pins it all the same", h.Script, filepath.Base(program))})
	}
	return out
}

// programCheck checks the program a command runs: found (on PATH when it
// has no /), a regular file we may execute.
func programCheck(program string) Check {
	path := program
	if !strings.Contains(program, "/") {
		found, err := exec.LookPath(program)
		if err != nil {
			return Check{"executable", CheckFail, fmt.Sprintf("program %q is not found on PATH (or not executable there): install it or give its full path", program)}
		}
		path = found
	}
	if err := shell.CheckExecutable(path, true); err != nil {
		return Check{"executable", CheckFail, fmt.Sprintf("program %s cannot run: %v", program, strings.TrimPrefix(err.Error(), "script "))}
	}
	return Check{"executable", CheckOK, fmt.Sprintf("program %s (%s) exists and can run", filepath.Base(program), path)}
}
