package code

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// word is one word of a simple command: its value when it is known at
// the time of the decision (ok), and how it was written.
type word struct {
	s   string
	ok  bool
	raw string
}

// scope is where a command runs: the folder relative paths resolve in, ""
// while it is the agent's working folder (unknown).
type scope struct {
	dir string
}

// command judges one simple command: words[0] is the program. inShell
// says the words come from a `sh -c` string, where builtins and functions
// exist; otherwise argv is started by execvp as it is.
func (f *finder) command(words []word, sc scope, inShell bool) {
	if len(words) == 0 {
		return
	}
	w0 := words[0]
	if !w0.ok {
		f.unpinnable(fmt.Sprintf("the program %s is known only when the command runs", quote(w0.raw)))
		return
	}
	if inShell && f.builtin(words, sc) {
		return
	}
	path, ok := f.lookPath(w0.s, sc)
	if !ok {
		return
	}
	f.add(path)
	f.shebang(path, 0)
	name := f.interpreterName(w0.s, path)
	f.argsMatter = f.argsMatter || name == "env" || wrappers[name] != nil || runsArguments[name] || name == "find" || interpreters[familyOf(name)] != nil
	switch {
	case name == "env":
		f.env1(words[1:], sc)
	case wrappers[name] != nil:
		f.wrapper(name, words[1:], sc)
	case runsArguments[name]:
		f.unpinnable(fmt.Sprintf("%s runs a program named in its arguments, which hermes does not follow", name))
	case name == "find":
		for _, w := range words[1:] {
			if w.s == "-exec" || w.s == "-execdir" || w.s == "-ok" || w.s == "-okdir" {
				f.unpinnable("find " + w.s + " runs a program named in its arguments, which hermes does not follow")
			}
		}
	case interpreters[familyOf(name)] != nil:
		f.interpreter(familyOf(name), name, words[1:], sc)
	}
}

// lookPath resolves a program as execvp does: a name with "/" is a path
// (relative ones need a known folder), a bare name is searched in PATH.
// false when the code cannot be pinned through it (the reason recorded).
func (f *finder) lookPath(name string, sc scope) (string, bool) {
	if name == "" {
		f.unpinnable("the program is an empty word")
		return "", false
	}
	if strings.Contains(name, "/") {
		return f.resolve(name, sc, "the program")
	}
	path := f.env.PATH
	if path == "" {
		path = "/bin:/usr/bin" // glibc's execvp default when PATH is unset
	}
	for _, dir := range filepath.SplitList(path) {
		cand := filepath.Join(dir, name)
		if dir == "" {
			cand = name
		}
		if !f.env.Memo.executable(cand) {
			continue
		}
		if !filepath.IsAbs(cand) {
			f.unpinnable(fmt.Sprintf("the program %s is found through the PATH entry %s, relative to the folder the agent runs in", quote(name), quote(dir)))
			return "", false
		}
		return cand, true
	}
	f.unpinnable(fmt.Sprintf("the program %s is not found in PATH", quote(name)))
	return "", false
}

// resolve makes a path of the code absolute: a relative one is in the
// folder a `cd` chose, else it depends on where the agent runs. what names
// the word in the reason.
func (f *finder) resolve(p string, sc scope, what string) (string, bool) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), true
	}
	if sc.dir != "" {
		return filepath.Join(sc.dir, p), true
	}
	f.unpinnable(fmt.Sprintf("%s %s is a relative path: it depends on the folder the agent runs in (write it as an absolute path, or cd to one first)", what, quote(p)))
	return "", false
}

// executable is what execvp accepts: a regular file we may execute.
func executable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return false
	}
	return unix.Faccessat(unix.AT_FDCWD, path, unix.X_OK, unix.AT_EACCESS) == nil
}

// env1 looks through `env [-i] [-u NAME] [-C DIR] [NAME=VALUE…] PROG …`.
func (f *finder) env1(args []word, sc scope) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			f.unpinnable(fmt.Sprintf("env's argument %s is known only when the command runs", quote(a.raw)))
			return
		}
		switch {
		case a.s == "--":
			f.command(args[i+1:], sc, false)
			return
		case a.s == "-u" || a.s == "--unset":
			i++
		case a.s == "-C" || a.s == "--chdir":
			if i+1 < len(args) && args[i+1].ok && filepath.IsAbs(args[i+1].s) {
				sc.dir = args[i+1].s
			} else {
				sc.dir = ""
			}
			i++
		case splitsString(a.s):
			f.unpinnable("env -S splits a string into a command, which hermes does not follow")
			return
		case strings.HasPrefix(a.s, "-") && a.s != "-":
			// -i, -0, --ignore-environment, --unset=NAME: no program here
		case strings.Contains(a.s, "="):
			f.assignment(a.s[:strings.Index(a.s, "=")])
		default:
			f.command(args[i:], sc, false)
			return
		}
	}
}

// codeVariables change which code a program runs when they are set.
var codeVariables = map[string]bool{
	"PATH": true, "HOME": true, "CLAUDE_PROJECT_DIR": true, "HERMES_HOME": true,
	"BASH_ENV": true, "ENV": true, "LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true,
	"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONUSERBASE": true,
	"NODE_OPTIONS": true, "NODE_PATH": true, "PERL5LIB": true, "PERL5OPT": true, "PERLLIB": true,
	"RUBYOPT": true, "RUBYLIB": true, "LUA_PATH": true, "LUA_INIT": true, "R_PROFILE": true,
	"SHELLOPTS": true, "BASHOPTS": true, "IFS": true,
}

// assignment judges NAME=… before or as a command.
func (f *finder) assignment(name string) {
	if codeVariables[name] {
		f.unpinnable(fmt.Sprintf("%s is assigned in the command, which changes which code runs", name))
	}
}

// wrappers run the program after their own options; the table lists the
// options that take a value, and how many operands come before the program.
var wrappers = map[string]*wrapperSpec{
	"nohup":   {},
	"setsid":  {},
	"nice":    {value: []string{"-n", "--adjustment"}},
	"stdbuf":  {value: []string{"-i", "-o", "-e", "--input", "--output", "--error"}},
	"timeout": {value: []string{"-s", "-k", "--signal", "--kill-after"}, operands: 1},
	"exec":    {value: []string{"-a"}},
	"command": {},
	"time":    {value: []string{"-f", "-o", "--format", "--output"}},
}

type wrapperSpec struct {
	value    []string
	operands int
}

// runsArguments are programs whose arguments name a program to run in a
// way this package does not follow.
var runsArguments = map[string]bool{
	"xargs": true, "sudo": true, "doas": true, "su": true, "runuser": true, "flock": true,
	"watch": true, "parallel": true, "chroot": true, "unshare": true, "nsenter": true,
	"strace": true, "ltrace": true, "gdb": true, "script": true, "busybox": true,
	"chrt": true, "ionice": true, "taskset": true, "systemd-run": true, "firejail": true,
	"bwrap": true, "make": true, "npx": true, "uvx": true, "pipx": true,
}

// wrapper looks through a program that runs the program after its options.
func (f *finder) wrapper(name string, args []word, sc scope) {
	spec := wrappers[name]
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			f.unpinnable(fmt.Sprintf("%s's argument %s is known only when the command runs", name, quote(a.raw)))
			return
		}
		if a.s == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a.s, "-") || a.s == "-" {
			break
		}
		if name == "command" && (a.s == "-v" || a.s == "-V") {
			return // only says where a program is
		}
		if contains(spec.value, a.s) {
			i++
		}
	}
	i += spec.operands
	if i < len(args) {
		f.command(args[i:], sc, name == "exec" || name == "command")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quote shows a word in a reason.
func quote(s string) string { return fmt.Sprintf("%q", s) }

// splitsString reports env's -S (--split-string), alone or among short
// options.
func splitsString(a string) bool {
	if strings.HasPrefix(a, "--") {
		return strings.HasPrefix(a, "--split-string")
	}
	return strings.HasPrefix(a, "-") && strings.Contains(a, "S")
}
