package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// scriptExtensions are the suffixes (compared case-insensitively) that mark
// a word as the script of a command even when an interpreter comes first.
var scriptExtensions = []string{
	".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua",
	".js", ".mjs", ".cjs", ".ts",
}

// ResolveScript picks the script behind a command's argv (SPEC §4): the
// first word with a script extension; else the first word containing "/" or
// starting with "~"; else the first word. The result is the file the
// process will open, as an absolute path when it can be: a bare first word
// is looked up in PATH the way exec would, and a relative path is made
// absolute against the current directory (hooks run in ours). A "~" in argv
// is never expanded here: only a leading "~" of the whole command is, before
// splitting (Argv), so a word that still starts with "~" reaches the
// process literally and names a folder called "~" in the current directory
// (see TildeScript). firstWord reports whether the script is argv[0], i.e.
// executed directly rather than handed to an interpreter.
//
// A bare first word that PATH does not resolve is returned as it is, so
// CheckExecutable can say it was not found.
func ResolveScript(argv []string) (path string, firstWord bool) {
	if len(argv) == 0 {
		return "", false
	}
	idx := pickScript(argv)
	word := argv[idx]
	if idx == 0 && !strings.Contains(word, "/") {
		if found, err := exec.LookPath(word); err == nil {
			if abs, err := filepath.Abs(found); err == nil {
				return abs, true
			}
			return found, true
		}
		return word, true
	}
	if abs, err := filepath.Abs(word); err == nil {
		word = abs
	}
	return word, idx == 0
}

// TildeScript returns the script word of argv when it starts with "~": a
// "~" the shell would expand but that reaches the process literally,
// because only the start of the whole command is expanded (as the agent
// does). "" when there is none.
func TildeScript(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	if w := argv[pickScript(argv)]; strings.HasPrefix(w, "~") {
		return w
	}
	return ""
}

// pickScript returns the index of the script word in argv.
func pickScript(argv []string) int {
	i, _ := ScriptWordIndex(argv)
	return i
}

// ScriptWordIndex is the index of the word SPEC §4 picks as the script in
// argv, and whether that word names a file (it has a script extension, a
// "/" or a leading "~") rather than being the fallback first word, a
// program looked up in PATH. A pipeline of programs has no script file.
func ScriptWordIndex(argv []string) (idx int, file bool) {
	for i, w := range argv {
		for _, ext := range scriptExtensions {
			if len(w) >= len(ext) && strings.EqualFold(w[len(w)-len(ext):], ext) {
				return i, true
			}
		}
	}
	for i, w := range argv {
		if strings.Contains(w, "/") || strings.HasPrefix(w, "~") {
			return i, true
		}
	}
	return 0, false
}

// CheckExecutable checks that the script found by ResolveScript can be run:
// it must exist (symlinks followed) and be a regular file; run directly
// (firstWord) it needs an execute bit for us, handed to an interpreter it
// only needs to be readable. Permissions are asked of the kernel for our
// effective ids, so root and ACLs are judged as exec would judge them.
func CheckExecutable(path string, firstWord bool) error {
	return CheckExecutableWith(path, firstWord, ExecProbes{})
}

// ExecProbes are what CheckExecutableWith asks of files besides the
// script's access: caches of them, for display and planning.
type ExecProbes struct {
	Stat   func(path string) (fs.FileInfo, error) // the script's; nil: os.Stat
	Head   func(path string) []byte               // a file's first bytes; nil: ReadHead
	Exists func(path string) bool                 // whether an interpreter is there; nil: a stat now
}

// CheckExecutableWith is CheckExecutable asking p.
func CheckExecutableWith(path string, firstWord bool, p ExecProbes) error {
	if firstWord && !strings.Contains(path, "/") {
		return fmt.Errorf("script %q: not found in PATH (or not executable there); give its full path or install it", path)
	}
	stat := os.Stat
	if p.Stat != nil {
		stat = p.Stat
	}
	info, err := stat(path)
	switch {
	case err != nil && (os.IsNotExist(err) || isNotDir(err)):
		return fmt.Errorf("script %q does not exist", path)
	case err != nil:
		return fmt.Errorf("script %q cannot be inspected: %w", path, err)
	case info.IsDir():
		return fmt.Errorf("script %q is a directory, not a file", path)
	case !info.Mode().IsRegular():
		return fmt.Errorf("script %q is not a regular file (%s)", path, info.Mode().Type())
	}
	if firstWord {
		if err := unix.Faccessat(unix.AT_FDCWD, path, unix.X_OK, unix.AT_EACCESS); err != nil {
			return fmt.Errorf("script %q is not executable (mode %s); run chmod +x on it", path, info.Mode().Perm())
		}
		if interp := missingInterpreterIn(path, p); interp != "" {
			return fmt.Errorf("script %q names interpreter %q on its #! line, which does not exist (a CRLF line end shows as \\r: save the script with LF line ends)", path, interp)
		}
		return nil
	}
	if err := unix.Faccessat(unix.AT_FDCWD, path, unix.R_OK, unix.AT_EACCESS); err != nil {
		return fmt.Errorf("script %q is not readable (mode %s); run chmod +r on it", path, info.Mode().Perm())
	}
	return nil
}

// isNotDir reports ENOTDIR: "a/file/x" where file is not a directory means
// the script does not exist either.
func isNotDir(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err == unix.ENOTDIR
}
