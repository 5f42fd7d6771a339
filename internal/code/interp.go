package code

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// interp is how one interpreter family reads its command line (SPEC §23
// point 2): which options take a value, which value is inline code, which
// names code found through an import path, and whether a missing script
// means code read from standard input.
type interp struct {
	value  []string // options whose value is data (-W x, -O opt)
	inline []string // options whose value is the code itself (-e CODE)
	module []string // options whose value is code found through an import path
	script []string // options whose value is the script (php -f FILE)
	// cFlag: -c is a flag and the first operand is the code (sh, bash…).
	cFlag bool
	// startup are options that make it read the user's startup files.
	startup []string
	// subcommands (deno, bun) come before the script: skipped, or inline.
	skip   []string
	evalOp []string
}

var interpreters = map[string]*interp{
	"sh": {
		value:   []string{"-o", "+o", "-O", "+O", "--rcfile", "--init-file"},
		cFlag:   true,
		startup: []string{"-i", "-l", "--login"},
	},
	"fish": {
		value:  []string{"-d", "--debug", "-o", "--debug-output", "--features", "-f"},
		inline: []string{"-c", "--command", "-C", "--init-command"},
	},
	"python": {
		value:  []string{"-W", "-X", "--check-hash-based-pycs"},
		inline: []string{"-c"},
		module: []string{"-m"},
	},
	"node": {
		value:  []string{"--input-type", "-C", "--conditions", "--title", "--inspect-port", "--stack-size", "--max-old-space-size"},
		inline: []string{"-e", "--eval", "-p", "--print"},
		module: []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file"},
	},
	"deno": {
		value:  []string{"--config", "-c", "--import-map", "--lock", "--cert", "--location", "--seed", "--v8-flags"},
		inline: []string{"--eval"},
		skip:   []string{"run"},
		evalOp: []string{"eval"},
	},
	"bun": {
		value:  []string{"--cwd", "--config", "-c", "--tsconfig-override"},
		inline: []string{"-e", "--eval", "-p", "--print"},
		module: []string{"-r", "--preload"},
		skip:   []string{"run"},
	},
	"ruby": {
		value:  []string{"-E", "--encoding", "-I", "-C", "-F"},
		inline: []string{"-e"},
		module: []string{"-r", "-S"},
	},
	"perl": {
		value:  []string{"-I", "-x", "-i", "-C"},
		inline: []string{"-e", "-E"},
		module: []string{"-M", "-m"},
	},
	"php": {
		value:  []string{"-c", "-d", "-z"},
		inline: []string{"-r", "-B", "-R", "-E"},
		script: []string{"-f", "-F"},
	},
	"lua": {
		inline: []string{"-e"},
		module: []string{"-l"},
	},
	"Rscript": {
		inline: []string{"-e"},
	},
}

// shells take -c and read their code as shell.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true}

// familyOf maps a program name to its interpreter family ("" for none).
func familyOf(name string) string {
	switch {
	case shells[name]:
		return "sh"
	case name == "python" || name == "python3" || name == "python2" || name == "pypy" || name == "pypy3" ||
		(strings.HasPrefix(name, "python3.") && digits(name[len("python3."):])):
		return "python"
	case name == "nodejs":
		return "node"
	case name == "luajit" || (strings.HasPrefix(name, "lua") && digitsDots(name[3:])):
		return "lua"
	}
	if interpreters[name] != nil {
		return name
	}
	return ""
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func digitsDots(s string) bool {
	return s == "" || digits(strings.ReplaceAll(s, ".", ""))
}

// interpreterName is the name a program is known by: as written, or, when
// that is no interpreter or wrapper, the file it resolves to (python →
// python3.12).
func (f *finder) interpreterName(written, path string) string {
	base := filepath.Base(written)
	if familyOf(base) != "" || base == "env" || wrappers[base] != nil || runsArguments[base] {
		return base
	}
	if real, err := f.env.Memo.evalSymlinks(path); err == nil {
		if rb := filepath.Base(real); familyOf(rb) != "" {
			return rb
		}
	}
	return base
}

// interpreter finds an interpreter's code among its arguments: the script
// after its own options, or inline code (a shell's is parsed in turn).
func (f *finder) interpreter(family, name string, args []word, sc scope) {
	spec := interpreters[family]
	inline := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			f.unpinnable(fmt.Sprintf("the %s argument %s is known only when the command runs", name, quote(a.raw)))
			return
		}
		s := a.s
		next := func() (word, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch {
		case s == "-":
			f.unpinnable(fmt.Sprintf("%s reads its code from standard input", name))
			return
		case s == "--":
			f.operand(family, args[i+1:], inline, sc)
			return
		case contains(spec.skip, s):
			continue
		case contains(spec.evalOp, s):
			return // deno eval CODE: inline
		case strings.HasPrefix(s, "--"):
			opt, _, attached := strings.Cut(s, "=")
			switch {
			case contains(spec.startup, opt):
				f.unpinnable(fmt.Sprintf("%s %s reads the user's startup files", name, opt))
				return
			case contains(spec.module, opt):
				f.unpinnable(fmt.Sprintf("%s %s loads code through the import path, which depends on the working folder and the environment", name, opt))
				return
			case contains(spec.inline, opt):
				return // the code is the command string's own
			case contains(spec.script, opt):
				if v, ok := attachedOr(s, attached, next); ok {
					f.scriptFile(v, sc, name)
				}
				return
			case contains(spec.value, opt) && !attached:
				next()
			}
		case (strings.HasPrefix(s, "-") || (family == "sh" && strings.HasPrefix(s, "+"))) && len(s) > 1:
			done, isInline := f.shortOptions(family, spec, s, next)
			if done {
				return
			}
			inline = inline || isInline
		default:
			f.operand(family, args[i:], inline, sc)
			return
		}
	}
	if inline {
		return // sh -c with no string runs nothing
	}
	f.unpinnable(fmt.Sprintf("%s with no script reads its code from standard input", name))
}

// attachedOr is an option's value: after "=" or the next word.
func attachedOr(s string, attached bool, next func() (word, bool)) (word, bool) {
	if attached {
		_, v, _ := strings.Cut(s, "=")
		return word{s: v, ok: true, raw: v}, true
	}
	return next()
}

// shortOptions reads a cluster of short options (-uc, -Wignore, -lne).
// done: the command line's code is settled (inline, module, script);
// inline: a shell's -c was among them.
func (f *finder) shortOptions(family string, spec *interp, s string, next func() (word, bool)) (done, inline bool) {
	if contains(spec.startup, s) {
		f.unpinnable(fmt.Sprintf("%s %s reads the user's startup files", family, s))
		return true, false
	}
	prefix := s[:1]
	for j := 1; j < len(s); j++ {
		opt := prefix + s[j:j+1]
		rest := s[j+1:]
		switch {
		case family == "sh" && opt == "-c":
			inline = true
		case family == "sh" && opt == "-s":
			f.unpinnable("the shell reads its code from standard input (-s)")
			return true, false
		case family == "sh" && (opt == "-i" || opt == "-l"):
			f.unpinnable(fmt.Sprintf("the shell's %s reads the user's startup files", opt))
			return true, false
		case contains(spec.module, opt):
			f.unpinnable(fmt.Sprintf("%s %s loads code through the import path, which depends on the working folder and the environment", family, opt))
			return true, false
		case contains(spec.inline, opt):
			return true, false // the code is the command string's own
		case contains(spec.script, opt):
			v := word{s: rest, ok: true, raw: rest}
			if rest == "" {
				var ok bool
				if v, ok = next(); !ok {
					return true, false
				}
			}
			if !v.ok {
				f.unpinnable(fmt.Sprintf("the script %s is known only when the command runs", quote(v.raw)))
			} else {
				f.scriptFile(v, scope{}, family)
			}
			return true, false
		case contains(spec.value, opt):
			if rest == "" {
				next()
			}
			return false, inline
		}
	}
	return false, inline
}

// operand judges an interpreter's first operand: the script, or with a
// shell's -c the code string itself.
func (f *finder) operand(family string, rest []word, inline bool, sc scope) {
	if len(rest) == 0 {
		if !inline {
			f.unpinnable(fmt.Sprintf("%s with no script reads its code from standard input", family))
		}
		return
	}
	a := rest[0]
	if !a.ok {
		f.unpinnable(fmt.Sprintf("the %s code %s is known only when the command runs", family, quote(a.raw)))
		return
	}
	if inline {
		f.shell(a.s, family, sc)
		return
	}
	f.scriptFile(a, sc, family)
}

// scriptFile adds an interpreter's script, resolved in the command's folder.
func (f *finder) scriptFile(a word, sc scope, interp string) {
	if !a.ok {
		f.unpinnable(fmt.Sprintf("the %s script %s is known only when the command runs", interp, quote(a.raw)))
		return
	}
	if p, ok := f.resolve(a.s, sc, "the script"); ok {
		f.add(p)
	}
}

// shebang adds the interpreter a program's `#!` line names: it runs too.
// depth bounds a chain of #! scripts naming #! scripts.
func (f *finder) shebang(path string, depth int) {
	interp, arg, ok := f.env.Memo.readShebang(path)
	if !ok || depth > 4 {
		return
	}
	if !filepath.IsAbs(interp) {
		f.unpinnable(fmt.Sprintf("%s names the relative interpreter %s on its #! line", path, quote(interp)))
		return
	}
	f.add(interp)
	if filepath.Base(interp) == "env" && arg != "" {
		fields := strings.Fields(arg)
		if fields[0] == "-S" || strings.HasPrefix(fields[0], "-") {
			fields = fields[1:]
		}
		if len(fields) == 0 {
			return
		}
		if p, ok := f.lookPath(fields[0], scope{}); ok {
			f.add(p)
			f.shebang(p, depth+1)
		}
		return
	}
	f.shebang(interp, depth+1)
}

// readShebang reads a file's `#!` line: the interpreter and its one
// optional argument, as the kernel splits it (ShebangLine). Only a regular
// file is opened: a FIFO planted as a hook's program would block an open
// for reading forever (and with it list, doctor or scan).
func readShebang(path string) (interp, arg string, ok bool) {
	return ShebangLine(shell.ReadHead(path))
}

// Shebang is the `#!` line of the file at path, as readShebang reads it:
// for the code's other readers (doctor --chaos), so that one function says
// what a script's interpreter is.
func Shebang(path string) (interp, arg string, ok bool) { return readShebang(path) }

// ShebangLine splits the `#!` line that starts head: the interpreter and
// its one optional argument (the rest of the line), as the kernel splits
// it; ok is false when head has none.
func ShebangLine(head []byte) (interp, arg string, ok bool) {
	if !bytes.HasPrefix(head, []byte("#!")) {
		return "", "", false
	}
	line := head[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(strings.TrimRight(string(line), "\r"))
	if len(fields) == 0 {
		return "", "", false
	}
	interp = fields[0]
	if len(fields) > 1 {
		arg = strings.Join(fields[1:], " ")
	}
	return interp, arg, true
}

// ShellCodeIndex is the index in argv of the code string of `SHELL
// [options] -c CODE …` (sh, bash, dash, zsh, ksh), -1 when argv is not
// that form. A "~" or "$HOME" in that word is the shell's to expand, not
// a literal path (SPEC §13 rule 1 is about words that reach a process).
func ShellCodeIndex(argv []string) int {
	if len(argv) < 3 || !shells[filepath.Base(argv[0])] {
		return -1
	}
	inline := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--" || a == "-":
			if inline && i+1 < len(argv) {
				return i + 1
			}
			return -1
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
			inline = inline || (a[0] == '-' && strings.Contains(a, "c"))
		default:
			if inline {
				return i
			}
			return -1
		}
	}
	return -1
}
