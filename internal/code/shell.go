package code

import (
	"fmt"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellLang is the parser's language for each shell that takes -c.
func shellLang(name string) syntax.LangVariant {
	switch name {
	case "bash", "zsh":
		return syntax.LangBash
	case "ksh", "mksh":
		return syntax.LangMirBSDKorn
	}
	return syntax.LangPOSIX
}

// shell judges the simple commands a shell's -c string can run (SPEC §23
// point 3), in pipelines, lists, subshells, groups, compound commands,
// functions and substitutions. Redirect targets, here-documents and the
// arguments of programs that are not interpreters are data.
func (f *finder) shell(src, shellName string, sc scope) {
	if f.depth >= maxDepth {
		f.unpinnable(fmt.Sprintf("shell code nested more than %d levels deep", maxDepth))
		return
	}
	if strings.IndexByte(src, 0) >= 0 {
		// No process is given a NUL byte (it ends a C string); the parser
		// reads past it.
		f.unpinnable(fmt.Sprintf("the %s code holds a NUL byte, which the shell is never given; its code is not judged", shellName))
		return
	}
	if strings.Contains(src, "\r\n") {
		// The parser drops a carriage return before a line feed, and reads
		// a backslash before one as a line continuation; the shell keeps
		// it in the word: `echo \<CR><LF>./x.sh` runs ./x.sh, which the
		// parser would take for echo's argument.
		f.unpinnable(fmt.Sprintf("the %s code has a CRLF line end, which the shell reads differently from this parser (the carriage return is part of a word); its code is not judged", shellName))
		return
	}
	file, err := syntax.NewParser(syntax.Variant(shellLang(shellName))).Parse(strings.NewReader(src), "")
	if err != nil {
		f.unpinnable(fmt.Sprintf("the %s code cannot be parsed: %v", shellName, err))
		return
	}
	f.depth++
	defer func() { f.depth-- }()
	w := &walker{f: f, src: src, funcs: map[string]bool{}}
	w.stmts(file.Stmts, &sc)
}

// walker walks one parsed shell string.
type walker struct {
	f     *finder
	src   string
	funcs map[string]bool // functions declared so far: calling one runs no file
}

func (w *walker) stmts(list []*syntax.Stmt, sc *scope) {
	for _, s := range list {
		w.stmt(s, sc)
	}
}

func (w *walker) stmt(s *syntax.Stmt, sc *scope) {
	if s == nil {
		return
	}
	w.cmd(s.Cmd, sc)
	for _, r := range s.Redirs {
		// The target and a here-document are data; what runs inside them
		// ($(…) in an unquoted one) is code.
		w.nested(r.Word, *sc)
		w.nested(r.Hdoc, *sc)
	}
}

func (w *walker) cmd(c syntax.Command, sc *scope) {
	switch c := c.(type) {
	case nil:
	case *syntax.CallExpr:
		w.call(c, sc)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			// Each side of a pipe runs in its own subshell: a cd there
			// does not carry over.
			left, right := *sc, *sc
			w.stmt(c.X, &left)
			w.stmt(c.Y, &right)
			return
		}
		w.stmt(c.X, sc)
		w.stmt(c.Y, sc)
	case *syntax.Subshell:
		sub := *sc
		w.stmts(c.Stmts, &sub)
	case *syntax.Block:
		w.stmts(c.Stmts, sc)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond, sc)
			w.stmts(ic.Then, sc)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, sc)
		w.stmts(c.Do, sc)
	case *syntax.ForClause:
		w.nested(c.Loop, *sc)
		w.stmts(c.Do, sc)
	case *syntax.CaseClause:
		w.nested(c.Word, *sc)
		for _, item := range c.Items {
			for _, p := range item.Patterns {
				w.nested(p, *sc)
			}
			w.stmts(item.Stmts, sc)
		}
	case *syntax.FuncDecl:
		if c.Name != nil {
			w.funcs[c.Name.Value] = true
		}
		body := *sc
		w.stmt(c.Body, &body)
	case *syntax.DeclClause:
		for _, a := range c.Args {
			w.assign(a, *sc)
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt, sc)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt, sc)
	default:
		// [[ ]], (( )), let, test declarations: only substitutions in
		// them can run anything.
		w.nested(c, *sc)
	}
}

// nested judges the commands of every $(…), `…` and <(…) inside n, which
// run whatever n's place (an argument, a redirect target) means.
func (w *walker) nested(n syntax.Node, sc scope) {
	if n == nil {
		return
	}
	if wd, ok := n.(*syntax.Word); ok && wd == nil {
		return
	}
	syntax.Walk(n, func(x syntax.Node) bool {
		switch x := x.(type) {
		case *syntax.CmdSubst:
			sub := sc
			w.stmts(x.Stmts, &sub)
			return false
		case *syntax.ProcSubst:
			sub := sc
			w.stmts(x.Stmts, &sub)
			return false
		}
		return true
	})
}

func (w *walker) assign(a *syntax.Assign, sc scope) {
	if a == nil {
		return
	}
	if a.Name != nil {
		w.f.assignment(a.Name.Value)
	}
	if a.Value != nil {
		w.nested(a.Value, sc)
	}
	if a.Array != nil {
		w.nested(a.Array, sc)
	}
	if a.Index != nil {
		w.nested(a.Index, sc)
	}
}

func (w *walker) call(c *syntax.CallExpr, sc *scope) {
	for _, a := range c.Assigns {
		w.assign(a, *sc)
	}
	words := make([]word, len(c.Args))
	for i, a := range c.Args {
		w.nested(a, *sc)
		words[i] = w.f.wordOf(a, w.src)
	}
	if len(words) == 0 {
		return
	}
	if words[0].ok && w.funcs[words[0].s] {
		return // the function's body was judged where it was declared
	}
	if words[0].ok && words[0].s == "cd" {
		w.cd(words[1:], sc)
		return
	}
	w.f.command(words, *sc, true)
}

// cd sets the folder later relative paths resolve in (SPEC §23 point 3):
// an absolute literal folder, or one relative to a folder already known.
func (w *walker) cd(args []word, sc *scope) {
	for len(args) > 0 && args[0].ok && (args[0].s == "-L" || args[0].s == "-P" || args[0].s == "--") {
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		home, _ := w.f.knownVar("HOME")
		sc.dir = home
	case !args[0].ok || args[0].s == "-" || args[0].s == "":
		sc.dir = ""
	case filepath.IsAbs(args[0].s):
		sc.dir = filepath.Clean(args[0].s)
	case sc.dir != "":
		sc.dir = filepath.Join(sc.dir, args[0].s)
	}
}

// builtin judges the shell's own commands; false when words[0] is not
// one (a program is then looked up in PATH).
func (f *finder) builtin(words []word, sc scope) bool {
	name, args := words[0].s, words[1:]
	switch name {
	case "eval":
		f.unpinnable("eval runs code that is put together when the command runs")
	case "exec", "command":
		f.wrapper(name, args, sc)
	case "source", ".":
		f.source(name, args, sc)
	case "trap":
		if len(args) >= 2 {
			if !args[0].ok {
				f.unpinnable(fmt.Sprintf("trap's action %s is known only when the command runs", quote(args[0].raw)))
			} else if args[0].s != "-" {
				f.shell(args[0].s, "sh", sc)
			}
		}
	default:
		return shellBuiltins[name]
	}
	return true
}

// shellBuiltins run no file (POSIX's special and regular built-ins, and
// bash's common ones).
var shellBuiltins = map[string]bool{
	":": true, "true": true, "false": true, "echo": true, "printf": true, "test": true, "[": true,
	"exit": true, "return": true, "set": true, "unset": true, "export": true, "readonly": true,
	"local": true, "declare": true, "typeset": true, "shift": true, "read": true, "wait": true,
	"ulimit": true, "umask": true, "alias": true, "unalias": true, "getopts": true, "hash": true,
	"type": true, "pwd": true, "jobs": true, "fg": true, "bg": true, "kill": true, "let": true,
	"break": true, "continue": true, "times": true, "shopt": true, "mapfile": true,
	"readarray": true, "builtin": true, "pushd": true, "popd": true, "dirs": true, "disown": true,
	"enable": true, "caller": true, "help": true, "logout": true, "suspend": true,
}

// source judges `source FILE` / `. FILE`: a literal file is code; a name
// without "/" is searched in PATH, as POSIX sh does.
func (f *finder) source(name string, args []word, sc scope) {
	if len(args) == 0 {
		return
	}
	a := args[0]
	if !a.ok {
		f.unpinnable(fmt.Sprintf("%s of %s: the file is known only when the command runs", name, quote(a.raw)))
		return
	}
	if !strings.Contains(a.s, "/") {
		for _, dir := range filepath.SplitList(f.env.PATH) {
			if cand := filepath.Join(dir, a.s); filepath.IsAbs(dir) && f.env.Memo.isRegular(cand) {
				f.add(cand)
				return
			}
		}
	}
	if p, ok := f.resolve(a.s, sc, "the file sourced"); ok {
		f.add(p)
	}
}
