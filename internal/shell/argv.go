package shell

import (
	"errors"
	"strings"
)

// ParseError says a hook's command could not be turned into argv. The hook
// is skipped (or reported) rather than run; it is never a crash.
type ParseError struct {
	Command string
	Reason  string
}

func (e *ParseError) Error() string {
	// The command goes in verbatim between plain quotes, as SPEC §4 spells
	// the message; %q would escape the very quotes that failed to parse.
	return `command "` + e.Command + `" cannot be parsed: ` + e.Reason
}

// errEmptyCommand is the reason given when a command has no words at all.
var errEmptyCommand = errors.New("empty command")

// ExpandTilde expands a leading "~" or "~user" of the whole command string,
// exactly as Python's os.path.expanduser does when handed the command: the
// user name runs from after the "~" to the first "/" (or the end of the
// string), so "~/bin/hook.sh --x" expands while "~ x" or "~bob --flag"
// (no such user " x" / "bob --flag") stay as they are. home stands for
// $HOME; when it is empty the current user's home from the password
// database is used instead.
func ExpandTilde(cmd string, home string) string {
	if !strings.HasPrefix(cmd, "~") {
		return cmd
	}
	i := strings.IndexByte(cmd[1:], '/') + 1
	if i == 0 {
		i = len(cmd)
	}
	dir := home
	if i > 1 || dir == "" {
		h, ok := userHome(cmd[1:i])
		if !ok {
			return cmd
		}
		dir = h
	}
	out := strings.TrimRight(dir, "/") + cmd[i:]
	if out == "" {
		return "/"
	}
	return out
}

// Argv turns a hook's command into the argv to execute: a leading ~ is
// expanded, then the string is split like shlex.split. Errors are
// *ParseError.
func Argv(cmd, home string) ([]string, error) {
	words, err := Split(ExpandTilde(cmd, home))
	if err == nil && len(words) == 0 {
		err = errEmptyCommand
	}
	if err != nil {
		return nil, &ParseError{Command: cmd, Reason: err.Error()}
	}
	return words, nil
}
