package code

import (
	"bytes"
	"slices"

	"github.com/hermes-hooks/hermes/internal/memo"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Memo remembers what finding code asked of the file system (where a path
// resolves, whether it is a regular or executable file, its #! line,
// whether it is a system file), for one invocation that finds the code of
// many hooks to show or plan them: `list` or `protect --all` of 100,000
// hooks over one script ask about the same few files 100,000 times (SPEC
// §29 item 2). The answers are the ones the file system gave the first
// time, so a Memo is never used for a decision to run a hook: there
// Env.Memo is nil and every question is asked now. Safe for concurrent
// use; the zero Memo is ready.
type Memo struct {
	// One map per question, keyed by path: a string hashes faster than
	// a key of several fields, and an answer of its own type is not put
	// in an interface (100,000 distinct scripts ask six questions each).
	reals    memo.Map[string, realPath]      // filepath.EvalSymlinks
	regulars memo.Map[string, bool]          // os.Stat: a regular file
	execs    memo.Map[string, bool]          // executable
	shebangs memo.Map[string, shebangLine]   // readShebang
	heads    memo.Map[string, []byte]        // HashBang
	systems  memo.Map[systemKey, bool]       // finder.isSystem, keyed by the private folders too
	privates memo.Map[[3]string, privateKey] // newFinder's folders, by Home, HermesHome, ProjectDir
	// programs is the code of a program run with no arguments, by its
	// word and the Env: the code of 755,000 hooks that run one script
	// with arguments of their own, found once (SPEC §29 item 2).
	programs memo.Map[programKey, programCode]
	// Files resolves each folder's symlinks once, for scripts of their
	// own in few folders, and lstats each file once: one the invocation's
	// other caches share (nil: the Memo's own).
	Files *safepath.Resolver
	own   safepath.Resolver
	// ReadHead reads the first shell.HeadSize bytes of a file as
	// shell.ReadHead does (nil: shell.ReadHead), for HashBang.
	ReadHead func(path string) []byte
}

type programKey struct {
	program, path, home, hermesHome, projectDir string
}

type programCode struct {
	code       Code
	argsMatter bool
}

// program is the code of a command whose first word is program and whose
// arguments neither hold §4's script word nor are read by the program
// (ok is false when they might be: an interpreter's, a wrapper's): the
// code of program alone, found once.
func (m *Memo) program(program string, env Env) (c Code, ok bool) {
	p := m.programs.Get(programKey{program, env.PATH, env.Home, env.HermesHome, env.ProjectDir}, func() programCode {
		c, argsMatter := findArgv([]string{program}, env)
		return programCode{c, argsMatter}
	})
	if p.argsMatter {
		return Code{}, false
	}
	c = p.code
	c.Files = slices.Clone(c.Files) // the caller's to fill in (hashes)
	return c, true
}

type privateKey struct {
	dirs []string
	key  string // dirs joined: systemKey's scope
}

type systemKey struct {
	scope string // the finder's private folders (not joined to path: a string made per lookup)
	path  string
}

type realPath struct {
	real string
	err  error
}

type shebangLine struct {
	interp, arg string
	ok          bool
}

// files is the resolver m asks through; nil (nothing remembered) for a
// nil m.
func (m *Memo) files() *safepath.Resolver {
	switch {
	case m == nil:
		return nil
	case m.Files != nil:
		return m.Files
	}
	return &m.own
}

// Each question below is asked now for a nil m, else once per path.

func (m *Memo) evalSymlinks(path string) (string, error) {
	ask := func() realPath {
		real, err := m.files().EvalSymlinks(path)
		return realPath{real, err}
	}
	var r realPath
	if m == nil {
		r = ask()
	} else {
		r = m.reals.Get(path, ask)
	}
	return r.real, r.err
}

func (m *Memo) isRegular(path string) bool {
	ask := func() bool {
		fi, err := m.files().Stat(path)
		return err == nil && fi.Mode().IsRegular()
	}
	if m == nil {
		return ask()
	}
	return m.regulars.Get(path, ask)
}

func (m *Memo) executable(path string) bool {
	ask := func() bool { return executable(path) }
	if m == nil {
		return ask()
	}
	return m.execs.Get(path, ask)
}

func (m *Memo) readShebang(path string) (interp, arg string, ok bool) {
	ask := func() shebangLine {
		i, a, ok := ShebangLine(m.HashBang(path))
		return shebangLine{i, a, ok}
	}
	var s shebangLine
	if m == nil {
		s = ask()
	} else {
		s = m.shebangs.Get(path, ask)
	}
	return s.interp, s.arg, s.ok
}

// HashBang is the #! line, line feed included, that starts the regular
// file at path (as shell.ReadHead reads it), nil when it has none: what
// finding code and shell.CheckExecutableWith read of a script, read once
// for both (SPEC §29 item 2: 100,000 distinct scripts each opened twice
// more than needed). Only the line is kept.
func (m *Memo) HashBang(path string) []byte {
	ask := func() []byte {
		read := shell.ReadHead
		if m != nil && m.ReadHead != nil {
			read = m.ReadHead
		}
		head := read(path)
		if !bytes.HasPrefix(head, []byte("#!")) {
			return nil
		}
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		}
		return bytes.Clone(head)
	}
	if m == nil {
		return ask()
	}
	return m.heads.Get(path, ask)
}

// isSystem is f.isSystem(path), remembered for f's private folders.
func (m *Memo) isSystem(f *finder, path string) bool {
	if m == nil {
		return f.isSystemNow(path)
	}
	return m.systems.Get(systemKey{f.memoKey, path}, func() bool { return f.isSystemNow(path) })
}
