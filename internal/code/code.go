package code

import (
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Env is what is known, at the time of the decision, about how the hook
// will run: the variables a program's place may use, and the PATH execvp
// searches.
type Env struct {
	// PATH is the PATH the hook runs with; "" means unset, which execvp
	// reads as /bin:/usr/bin.
	PATH string
	// Home is HOME: a leading "~" of the command, "~" and $HOME inside
	// `sh -c`.
	Home string
	// ProjectDir is CLAUDE_PROJECT_DIR (§19's --project-dir), "" when
	// there is none: $CLAUDE_PROJECT_DIR is then unknown.
	ProjectDir string
	// HermesHome is HERMES_HOME.
	HermesHome string
	// Memo, when not nil, remembers the file system's answers across the
	// hooks of one invocation that shows or plans them (Memo); nil asks
	// now, as every decision to run a hook must.
	Memo *Memo
}

// File is one file of a hook's code.
type File struct {
	// Path is the file as the process opens it: absolute, symlinks not
	// resolved (the path recorded is the path that must resolve to the
	// same file again).
	Path string `json:"path"`
	// System: trusted by ownership, not hashed (SPEC §23 point 4).
	System bool `json:"system,omitempty"`
	// SHA256 is the file's hash when it was hashed (Hash), "" otherwise
	// and always for a system file.
	SHA256 string `json:"sha256,omitempty"`
}

// Code is a command's code: the files found, in the order found, each
// once, and whether that is all of it.
type Code struct {
	Files []File
	// Pinnable is false when what runs depends on something known only
	// when it runs; Reason then says what (the first such thing found).
	Pinnable bool
	Reason   string
}

// AllSystem reports whether every file of a pinnable code is a system
// file: a Claude Code inline pipeline of system programs (SPEC §23).
func (c Code) AllSystem() bool {
	if !c.Pinnable {
		return false
	}
	for _, f := range c.Files {
		if !f.System {
			return false
		}
	}
	return true
}

// Find is the code of a hook's command as the agent runs it: split as §4
// splits (Python's shlex, a leading "~" expanded with env.Home), then
// judged as an argv (FindArgv).
func Find(command string, env Env) Code {
	argv, err := shell.Argv(command, env.Home)
	if err != nil {
		return Code{Reason: "the command cannot be parsed: " + err.Error()}
	}
	return FindArgv(argv, env)
}

// FindArgv is the code of a process started with argv by execvp: its
// program and what that program runs. §4's script word, when it names a
// file, is part of the code too, so the code never pins less than §4 did.
func FindArgv(argv []string, env Env) Code {
	if env.Memo != nil && len(argv) > 0 {
		if i, _ := shell.ScriptWordIndex(argv); i == 0 {
			if c, ok := env.Memo.program(argv[0], env); ok {
				return c
			}
		}
	}
	c, _ := findArgv(argv, env)
	return c
}

// findArgv is FindArgv asking env.Memo only of files; argsMatter says
// whether the program reads its arguments as code, or names a program
// in them (an interpreter, env, a wrapper, find).
func findArgv(argv []string, env Env) (c Code, argsMatter bool) {
	f := newFinder(env)
	words := make([]word, len(argv))
	for i, a := range argv {
		words[i] = word{s: a, ok: true, raw: a}
	}
	f.command(words, scope{}, false)
	f.addScriptWord(argv)
	return f.result(), f.argsMatter
}

// FindShell is the code of `sh -c script`: how Claude Code runs a command
// hook. The parse is POSIX sh's.
func FindShell(script string, env Env) Code {
	f := newFinder(env)
	f.shell(script, "sh", scope{})
	return f.result()
}

// finder collects the code of one command.
type finder struct {
	env    Env
	files  []File
	reason string
	depth  int // nesting of `sh -c` inside `sh -c`
	// private are the folders whose files are never system files, symlinks
	// resolved.
	private []string
	// roots remembers the ownership of the folders judged for system
	// files in this one finding.
	roots safepath.RootOnlyCache
	// memoKey is private as a key of env.Memo's answers on system files.
	memoKey string
	// argsMatter: a program judged reads its arguments as code, or names
	// a program in them.
	argsMatter bool
}

// maxDepth bounds `sh -c` nested in `sh -c`: deeper, the code is not
// pinnable (a fuzzer's input must not cost more than a page of code).
const maxDepth = 8

func newFinder(env Env) *finder {
	f := &finder{env: env}
	if env.Memo == nil {
		f.private = privateFolders(env)
		return f
	}
	// The same three folders for every hook of an invocation: resolved
	// and joined once (1.2 s of `list` at 755,000 hooks).
	p := env.Memo.privates.Get([3]string{env.Home, env.HermesHome, env.ProjectDir}, func() privateKey {
		dirs := privateFolders(env)
		return privateKey{dirs, strings.Join(dirs, "\x00") + "\x00"}
	})
	f.private, f.memoKey = p.dirs[:len(p.dirs):len(p.dirs)], p.key
	return f
}

// privateFolders are env's home, Hermes home and project folder, symlinks
// resolved: their files are never system files.
func privateFolders(env Env) []string {
	var out []string
	for _, d := range []string{env.Home, env.HermesHome, env.ProjectDir} {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if real, err := env.Memo.evalSymlinks(d); err == nil {
			d = real
		}
		out = append(out, filepath.Clean(d))
	}
	return out
}

func (f *finder) result() Code {
	return Code{Files: f.files, Pinnable: f.reason == "", Reason: f.reason}
}

// unpinnable records why the code cannot be pinned; the first reason is
// the one reported.
func (f *finder) unpinnable(reason string) {
	if f.reason == "" {
		f.reason = reason
	}
}

// add records path (absolute) as a file of the code, once.
func (f *finder) add(path string) {
	path = filepath.Clean(path)
	for _, file := range f.files { // a few files: no map to make per hook
		if file.Path == path {
			return
		}
	}
	f.files = append(f.files, File{Path: path, System: f.isSystem(path)})
}

// systemRoots are the system's own folders (SPEC §23 point 4).
var systemRoots = []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt"}

// isSystem reports whether path is a system file: it resolves under one
// of systemRoots, outside every private folder, and only root can change it.
func (f *finder) isSystem(path string) bool { return f.env.Memo.isSystem(f, path) }

// isSystemNow is isSystem asked of the file system now.
func (f *finder) isSystemNow(path string) bool {
	real, err := f.env.Memo.evalSymlinks(path)
	if err != nil {
		return false
	}
	if !under(real, systemRoots) || under(real, f.private) {
		return false
	}
	if !f.env.Memo.isRegular(real) {
		return false
	}
	if f.roots == nil {
		f.roots = safepath.RootOnlyCache{}
	}
	return f.roots.CheckResolved(path, real) == nil
}

// under reports whether path is one of roots or inside one.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if path == r || strings.HasPrefix(path, r+"/") {
			return true
		}
	}
	return false
}

// addScriptWord adds §4's script of argv when it names a file that is
// there: the code never pins less than the old rule did.
func (f *finder) addScriptWord(argv []string) {
	i, file := shell.ScriptWordIndex(argv)
	if !file || len(argv) == 0 {
		return
	}
	p := argv[i]
	if strings.HasPrefix(p, "~") {
		return // reaches the process literally: refused by trust (§13 rule 1)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return
	}
	if f.env.Memo.isRegular(abs) {
		f.add(abs)
	}
}

// SHA256Of is the hash recorded for path in c, "" when c has no such
// pinned file.
func (c Code) SHA256Of(path string) string {
	for _, f := range c.Files {
		if f.Path == path {
			return f.SHA256
		}
	}
	return ""
}
