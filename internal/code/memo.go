package code

import (
	"bytes"

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
	m        memo.Map[memoKey, any]
	privates memo.Map[[3]string, privateKey] // newFinder's folders, by Home, HermesHome, ProjectDir
	// Files resolves each folder's symlinks once, for scripts of their
	// own in few folders, and lstats each file once: one the invocation's
	// other caches share (nil: the Memo's own).
	Files *safepath.Resolver
	own   safepath.Resolver
	// ReadHead reads the first shell.HeadSize bytes of a file as
	// shell.ReadHead does (nil: shell.ReadHead), for HashBang.
	ReadHead func(path string) []byte
}

type privateKey struct {
	dirs []string
	key  string // dirs joined, a prefix of askSystem's keys
}

type memoKey struct {
	op    byte
	scope string // askSystem: the finder's private folders (not joined to path: a string made per lookup)
	path  string
}

// The questions a Memo remembers.
const (
	askReal    byte = iota // filepath.EvalSymlinks
	askRegular             // os.Stat: a regular file
	askExec                // executable
	askShebang             // readShebang
	askHead                // HashBang
	askSystem              // finder.isSystem, keyed by the private folders too
)

type realPath struct {
	real string
	err  error
}

type shebangLine struct {
	interp, arg string
	ok          bool
}

// get is ask(), remembered under (op, path) when m is not nil.
func (m *Memo) get(op byte, path string, ask func() any) any {
	if m == nil {
		return ask()
	}
	return m.m.Get(memoKey{op: op, path: path}, ask)
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

func (m *Memo) evalSymlinks(path string) (string, error) {
	r := m.get(askReal, path, func() any {
		real, err := m.files().EvalSymlinks(path)
		return realPath{real, err}
	}).(realPath)
	return r.real, r.err
}

func (m *Memo) isRegular(path string) bool {
	return m.get(askRegular, path, func() any {
		fi, err := m.files().Stat(path)
		return err == nil && fi.Mode().IsRegular()
	}).(bool)
}

func (m *Memo) executable(path string) bool {
	return m.get(askExec, path, func() any { return executable(path) }).(bool)
}

func (m *Memo) readShebang(path string) (interp, arg string, ok bool) {
	s := m.get(askShebang, path, func() any {
		i, a, ok := ShebangLine(m.HashBang(path))
		return shebangLine{i, a, ok}
	}).(shebangLine)
	return s.interp, s.arg, s.ok
}

// HashBang is the #! line, line feed included, that starts the regular
// file at path (as shell.ReadHead reads it), nil when it has none: what
// finding code and shell.CheckExecutableWith read of a script, read once
// for both (SPEC §29 item 2: 100,000 distinct scripts each opened twice
// more than needed). Only the line is kept.
func (m *Memo) HashBang(path string) []byte {
	return m.get(askHead, path, func() any {
		read := shell.ReadHead
		if m != nil && m.ReadHead != nil {
			read = m.ReadHead
		}
		head := read(path)
		if !bytes.HasPrefix(head, []byte("#!")) {
			return []byte(nil)
		}
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			head = head[:i+1]
		}
		return bytes.Clone(head)
	}).([]byte)
}

// isSystem is f.isSystem(path), remembered for f's private folders.
func (m *Memo) isSystem(f *finder, path string) bool {
	if m == nil {
		return f.isSystemNow(path)
	}
	return m.m.Get(memoKey{askSystem, f.memoKey, path}, func() any { return f.isSystemNow(path) }).(bool)
}
