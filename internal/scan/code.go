package scan

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// CodeRequest asks for the code of one hook's command (SPEC §23).
type CodeRequest struct {
	Command string
	// Shell: the agent runs Command as `sh -c Command`; otherwise it is
	// split into words and run directly (Hermes, §4), or it is a path.
	Shell bool
	// Dir is the folder the command runs in; Checkout the project folder
	// ($CLAUDE_PROJECT_DIR); Home and Path what ~ and a bare program name
	// resolve through.
	Dir, Checkout, Home, Path string
}

// Code is what a code finder found: files by absolute path (System set for
// files trusted by ownership), and whether that is all of it.
type Code struct {
	Files    []CodeFile
	Pinnable bool
	Reason   string
}

// CodeFinder finds the code of a command without running anything. The
// CLI passes SPEC §23's finder (internal/code); DefaultCodeFinder is a
// small stand-in used until then and in tests.
type CodeFinder func(CodeRequest) Code

// DefaultCodeFinder resolves programs and interpreter scripts with a
// word-level reading of the command: each simple command of an `a | b &&
// c` list, `cd DIR` followed, ~, $HOME and $CLAUDE_PROJECT_DIR expanded,
// bare names looked up on Path. Anything it cannot follow (another
// variable, $(…), python -m) makes the command not pinnable.
func DefaultCodeFinder(req CodeRequest) Code {
	f := &finder{req: req, dir: req.Dir, code: Code{Pinnable: true}}
	if req.Shell {
		f.shell(req.Command, 0)
	} else {
		words, err := shell.Split(req.Command)
		if err != nil {
			f.unpinnable("the command cannot be split into words: " + err.Error())
		} else {
			f.simple(words, 0)
		}
	}
	return f.code
}

type finder struct {
	req  CodeRequest
	dir  string
	code Code
}

func (f *finder) unpinnable(reason string) {
	if f.code.Pinnable {
		f.code.Pinnable, f.code.Reason = false, reason
	}
}

func (f *finder) add(p string) {
	if slices.ContainsFunc(f.code.Files, func(c CodeFile) bool { return c.Path == p }) {
		return
	}
	f.code.Files = append(f.code.Files, CodeFile{Path: p, System: isSystemFile(p)})
}

// listSep splits a shell string at the operators that start another simple
// command, outside quotes.
var listSep = regexp.MustCompile(`\|\||&&|[|;&\n()]`)

func (f *finder) shell(s string, depth int) {
	if depth > 4 {
		f.unpinnable("sh -c nested too deeply")
		return
	}
	if strings.ContainsAny(s, "`") || strings.Contains(s, "$(") {
		f.unpinnable("command substitution decides what runs")
		return
	}
	for _, part := range splitOutsideQuotes(s) {
		words, err := shell.Split(part)
		if err != nil {
			f.unpinnable("the command cannot be read: " + err.Error())
			return
		}
		f.simple(dropRedirects(words), depth)
	}
}

// splitOutsideQuotes cuts s at list operators that are not quoted.
func splitOutsideQuotes(s string) []string {
	var parts []string
	start, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' {
				i++
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '\\':
			i++
		default:
			if loc := listSep.FindStringIndex(s[i:]); loc != nil && loc[0] == 0 {
				parts = append(parts, s[start:i])
				i += loc[1] - 1
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// dropRedirects removes redirections (their targets are data) and leading
// VAR=value assignments.
func dropRedirects(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if strings.ContainsAny(w, "<>") {
			if strings.TrimLeft(w, "0123456789&<>") == "" && i+1 < len(words) {
				i++ // "> file": the target is the next word
			}
			continue
		}
		if len(out) == 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "=") && !strings.ContainsAny(w[:strings.Index(w, "=")], "/$") {
			continue
		}
		out = append(out, w)
	}
	return out
}

var shellBuiltins = []string{"", ":", "true", "false", "echo", "printf", "exit", "export", "set", "unset", "test", "[",
	"read", "return", "shift", "wait", "trap", "umask", "if", "then", "else", "elif", "fi", "do", "done", "while",
	"for", "case", "esac", "{", "}", "!"}

var pythonN = regexp.MustCompile(`^python3\.\d+$`)

var interpreters = []string{"sh", "bash", "dash", "zsh", "ksh", "fish", "python", "python3", "pypy3", "node", "deno",
	"bun", "ruby", "perl", "php", "lua", "Rscript"}

// optionsWithValue are interpreter options whose value is the next word.
var optionsWithValue = []string{"-W", "-X", "-O", "-o", "-E", "-I", "-r", "--require", "--import", "--loader"}

func (f *finder) simple(argv []string, depth int) {
	if len(argv) == 0 || slices.Contains(shellBuiltins, argv[0]) {
		return
	}
	if argv[0] == "cd" {
		if len(argv) > 1 {
			if d, ok := f.expand(argv[1]); ok {
				f.dir = f.abs(d)
			}
		}
		return
	}
	if argv[0] == "env" {
		i := 1
		for i < len(argv) && (strings.HasPrefix(argv[i], "-") || strings.Contains(argv[i], "=")) {
			if argv[i] == "-u" {
				i++
			}
			i++
		}
		if p := f.program("env"); p != "" {
			f.add(p)
		}
		f.simple(argv[i:], depth)
		return
	}
	prog := f.program(argv[0])
	if prog == "" {
		return
	}
	f.add(prog)
	name := filepath.Base(argv[0])
	if !slices.Contains(interpreters, name) && !pythonN.MatchString(name) {
		return
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-c" || a == "-e" || a == "--eval":
			if i+1 < len(argv) && slices.Contains([]string{"sh", "bash", "dash", "zsh", "ksh"}, name) {
				f.shell(argv[i+1], depth+1)
			}
			return
		case a == "-m" || strings.HasPrefix(a, "-M") || a == "-r" && name != "ruby":
			f.unpinnable(name + " " + a + " loads code through the interpreter's import path")
			return
		case slices.Contains(optionsWithValue, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if p, ok := f.expand(a); ok {
				f.add(f.abs(p))
			}
			return
		}
	}
}

// program resolves argv[0] as execvp does: a path relative to the folder
// the command runs in, or a name on Path. "" when not found.
func (f *finder) program(word string) string {
	w, ok := f.expand(word)
	if !ok {
		return ""
	}
	if strings.Contains(w, "/") {
		return f.abs(w)
	}
	for _, d := range filepath.SplitList(f.req.Path) {
		p := filepath.Join(d, w)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// expand expands what is known when deciding: ~, $HOME, ${HOME},
// $CLAUDE_PROJECT_DIR. Another variable or a glob: not pinnable.
func (f *finder) expand(w string) (string, bool) {
	if w == "~" || strings.HasPrefix(w, "~/") {
		w = f.req.Home + w[1:]
	}
	for _, v := range []struct{ name, val string }{{"HOME", f.req.Home}, {"CLAUDE_PROJECT_DIR", f.req.Checkout}} {
		w = strings.ReplaceAll(w, "${"+v.name+"}", v.val)
		w = strings.ReplaceAll(w, "$"+v.name, v.val)
	}
	if strings.ContainsAny(w, "$*?[") {
		f.unpinnable("the word " + w + " depends on the environment or a glob")
		return "", false
	}
	return w, true
}

func (f *finder) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(f.dir, p)
}

// isSystemFile: under the system's folders and owned by root (SPEC §23
// point 4, in short: the real finder checks every folder and ACLs).
func isSystemFile(p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	if !slices.ContainsFunc([]string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/"}, func(d string) bool {
		return strings.HasPrefix(real, d)
	}) {
		return false
	}
	fi, err := os.Stat(real)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
