package code

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a throwaway machine: a bin folder on PATH with a compiled-like
// program (tool), fake interpreters and #! scripts, a home, a project and
// scripts at absolute paths. Folders under the test's temp dir are never
// system files.
type fixture struct {
	root, bin, home, proj string
	env                   Env
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	fx := &fixture{root: root, bin: filepath.Join(root, "bin"), home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
	for _, d := range []string{fx.bin, fx.home, fx.proj, filepath.Join(root, "s")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "s", "rules.sh"), []byte("rules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := map[string]string{
		"tool": "\x7fELF not a script", "tool2": "\x7fELF", "python3": "\x7fELF", "node": "\x7fELF",
		"perl": "\x7fELF", "ruby": "\x7fELF", "bash": "\x7fELF",
		"hook-py":  "#!/usr/bin/env python3\nprint(1)\n",
		"hook-sh":  "#!/bin/sh\necho hi\n",
		"hook-rel": "#!bin/sh\n",
	}
	for name, body := range exe {
		if err := os.WriteFile(filepath.Join(fx.bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	fx.env = Env{PATH: fx.bin + ":/usr/bin:/bin", Home: fx.home, ProjectDir: fx.proj, HermesHome: filepath.Join(fx.home, ".hermes")}
	return fx
}

// expand writes the fixture's folders for $BIN, $ROOT, $HOME, $PROJ.
func (fx *fixture) expand(s string) string {
	return strings.NewReplacer("$BIN", fx.bin, "$ROOT", fx.root, "$HOMEDIR", fx.home, "$PROJ", fx.proj).Replace(s)
}

func paths(c Code) []string {
	var out []string
	for _, f := range c.Files {
		out = append(out, f.Path)
	}
	return out
}

type findCase struct {
	name, cmd string
	files     []string // "" entries skipped; system files given as they resolve
	reason    string   // "" means pinnable
}

func TestFind(t *testing.T) {
	fx := newFixture(t)
	t.Chdir(fx.root) // relative words must not find files here by accident
	for _, tt := range findCases() {
		t.Run(tt.name, func(t *testing.T) {
			got := Find(fx.expand(tt.cmd), fx.env)
			var want []string
			for _, w := range tt.files {
				w = fx.expand(w)
				want = append(want, canon(t, w))
			}
			var have []string
			for _, p := range paths(got) {
				have = append(have, canon(t, p))
			}
			if strings.Join(have, "\n") != strings.Join(want, "\n") {
				t.Errorf("files:\n got %q\nwant %q", have, want)
			}
			if tt.reason == "" && !got.Pinnable {
				t.Errorf("not pinnable: %s", got.Reason)
			}
			if tt.reason != "" && (got.Pinnable || !strings.Contains(got.Reason, tt.reason)) {
				t.Errorf("pinnable %v, reason %q; want a reason with %q", got.Pinnable, got.Reason, tt.reason)
			}
		})
	}
}

// canon is a system path as it resolves, so /bin/sh and /usr/bin/sh
// compare equal on distributions where one links to the other.
func canon(t *testing.T, p string) string {
	t.Helper()
	if !strings.HasPrefix(p, "/usr/") && !strings.HasPrefix(p, "/bin/") {
		return p
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

func TestSimpleCommands(t *testing.T) {
	got, ok := SimpleCommands(`FOO=1 git   push origin && (cd x; { "git" 'push'; }) | echo $(rm -rf /tmp/x)`)
	if !ok {
		t.Fatal("not parsed")
	}
	want := []string{"git push origin", "cd x", `"git" 'push'`, "git push", "echo $(rm -rf /tmp/x)", "rm -rf /tmp/x"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if _, ok := SimpleCommands("if"); ok {
		t.Error("a line that cannot be parsed reported as parsed")
	}
}

// findCases are TestFind's commands, run against newFixture.
func findCases() []findCase {
	return []findCase{
		// Point 1: the program, as execvp finds it.
		{"program on PATH", "tool --rules rules.sh", []string{"$BIN/tool"}, ""},
		{"program before a script argument", "tool $ROOT/s/rules.sh", []string{"$BIN/tool", "$ROOT/s/rules.sh"}, ""},
		{"absolute program", "$BIN/tool x", []string{"$BIN/tool"}, ""},
		{"relative program (§4's file still pinned)", "bin/tool", []string{"$BIN/tool"}, "relative path"},
		{"not found", "no-such-program-xyz", nil, "not found in PATH"},
		{"env looked through", "env -i A=1 -u B tool x", []string{"/usr/bin/env", "$BIN/tool"}, ""},
		{"env with -C", "env -C $ROOT/s tool", []string{"/usr/bin/env", "$BIN/tool"}, ""},
		{"env sets PATH", "env PATH=/x tool", []string{"/usr/bin/env", "$BIN/tool"}, "PATH is assigned"},
		{"env -S", "env -S 'tool x'", []string{"/usr/bin/env"}, "env -S"},
		{"shebang env python", "hook-py", []string{"$BIN/hook-py", "/usr/bin/env", "$BIN/python3"}, ""},
		{"shebang sh", "hook-sh a.sh", []string{"$BIN/hook-sh", "/bin/sh"}, ""},
		{"shebang relative", "hook-rel", []string{"$BIN/hook-rel"}, "relative interpreter"},
		// Point 2: interpreters.
		{"python script after options", "python3 -W ignore -X dev -u $ROOT/s/x.py --flag y", []string{"$BIN/python3", "$ROOT/s/x.py"}, ""},
		{"python attached value", "python3 -Wignore $ROOT/s/x.py", []string{"$BIN/python3", "$ROOT/s/x.py"}, ""},
		{"python -m", "python3 -m mod", []string{"$BIN/python3"}, "import path"},
		{"python -c", "python3 -c 'import sys' $ROOT/s/x.py", []string{"$BIN/python3"}, ""},
		{"python stdin", "python3", []string{"$BIN/python3"}, "standard input"},
		{"python -", "python3 - x", []string{"$BIN/python3"}, "standard input"},
		{"python relative script", "python3 x.py", []string{"$BIN/python3"}, "relative path"},
		{"node -r", "node -r ./hook $ROOT/s/a.js", []string{"$BIN/node"}, "import path"},
		{"node --import=", "node --import=x $ROOT/s/a.js", []string{"$BIN/node"}, "import path"},
		{"node -e", "node -e 'x()'", []string{"$BIN/node"}, ""},
		{"perl -M", "perl -MFoo $ROOT/s/x.pl", []string{"$BIN/perl"}, "import path"},
		{"perl -lne", "perl -lne 'print' $ROOT/s/data", []string{"$BIN/perl"}, ""},
		{"ruby -E", "ruby -E utf-8 $ROOT/s/x.rb", []string{"$BIN/ruby", "$ROOT/s/x.rb"}, ""},
		{"ruby -r", "ruby -rjson $ROOT/s/x.rb", []string{"$BIN/ruby"}, "import path"},
		{"bash -O", "bash -O extglob $ROOT/s/x.sh", []string{"$BIN/bash", "$ROOT/s/x.sh"}, ""},
		{"bash -s", "bash -s", []string{"$BIN/bash"}, "standard input"},
		{"bash -i", "bash -i -c true", []string{"$BIN/bash"}, "startup files"},
		{"bash --login", "bash --login $ROOT/s/x.sh", []string{"$BIN/bash"}, "startup files"},
		// Point 3: sh -c.
		{"$HOME in sh -c", "sh -c '$HOME/x.sh'", []string{"/bin/sh", "$HOMEDIR/x.sh"}, ""},
		{"${HOME} in sh -c", `sh -c '"${HOME}/x.sh" a'`, []string{"/bin/sh", "$HOMEDIR/x.sh"}, ""},
		{"~ in sh -c", "sh -c '~/x.sh arg'", []string{"/bin/sh", "$HOMEDIR/x.sh"}, ""},
		{"~user in sh -c", "sh -c '~bob/x.sh'", []string{"/bin/sh"}, "known only when"},
		{"cd project", `sh -c 'cd "$CLAUDE_PROJECT_DIR" && ./x.sh'`, []string{"/bin/sh", "$PROJ/x.sh"}, ""},
		{"cd then relative cd", `sh -c 'cd $CLAUDE_PROJECT_DIR && cd sub && ./x.sh'`, []string{"/bin/sh", "$PROJ/sub/x.sh"}, ""},
		{"relative in sh -c", "sh -c './x.sh'", []string{"/bin/sh"}, "relative path"},
		// The shell runs rules.sh (the backslash escapes the carriage
		// return, the line feed ends tool's command); the parser would join
		// the lines and take rules.sh for tool's argument.
		{"CRLF in sh -c", "sh -c 'tool \\\r\n$ROOT/s/rules.sh'", []string{"/bin/sh"}, "CRLF line end"},
		{"NUL in sh -c", "sh -c 'tool \\\x00\n$ROOT/s/rules.sh'", []string{"/bin/sh"}, "NUL byte"},
		{"cd in a pipe side does not carry", `sh -c 'cd /tmp | ./x.sh'`, []string{"/bin/sh"}, "relative path"},
		{"redirects are data", "sh -c 'tool > $ROOT/s/out.sh 2>>$ROOT/s/err.sh < $ROOT/s/in.sh'", []string{"/bin/sh", "$BIN/tool"}, ""},
		{"tool arguments are data", "sh -c 'tool $ROOT/s/x.sh; tool2 -f $ROOT/s/y.py'", []string{"/bin/sh", "$BIN/tool", "$BIN/tool2"}, ""},
		{"heredoc is data", "sh -c 'tool <<EOF\n/abs/x.sh\nEOF'", []string{"/bin/sh", "$BIN/tool"}, ""},
		{"substitution in heredoc runs", "sh -c 'tool <<EOF\n$($ROOT/s/in.sh)\nEOF'", []string{"/bin/sh", "$BIN/tool", "$ROOT/s/in.sh"}, ""},
		{"substitution in redirect runs", "sh -c 'tool > \"$($ROOT/s/name.sh)\"'", []string{"/bin/sh", "$BIN/tool", "$ROOT/s/name.sh"}, ""},
		{"compound commands", "sh -c 'if tool; then $ROOT/s/a.sh; else $ROOT/s/b.sh; fi; while false; do $ROOT/s/c.sh; done; for i in 1 2; do $ROOT/s/d.sh; done; case x in x) $ROOT/s/e.sh;; esac; { $ROOT/s/f.sh; }; ($ROOT/s/g.sh) | tool2 && tool || tool2'",
			[]string{"/bin/sh", "$BIN/tool", "$ROOT/s/a.sh", "$ROOT/s/b.sh", "$ROOT/s/c.sh", "$ROOT/s/d.sh", "$ROOT/s/e.sh", "$ROOT/s/f.sh", "$ROOT/s/g.sh", "$BIN/tool2"}, ""},
		{"functions", "sh -c 'f() { $ROOT/s/h.sh; }; f; f'", []string{"/bin/sh", "$ROOT/s/h.sh"}, ""},
		{"variable program", "sh -c '$X a'", []string{"/bin/sh"}, `program "$X"`},
		{"command substitution program", "sh -c '$(tool) a'", []string{"/bin/sh", "$BIN/tool"}, "known only when"},
		{"backticks program", "sh -c '`tool`'", []string{"/bin/sh", "$BIN/tool"}, "known only when"},
		{"glob program", "sh -c '$ROOT/s/*.sh'", []string{"/bin/sh"}, "known only when"},
		{"eval", "sh -c 'eval tool'", []string{"/bin/sh"}, "eval"},
		{"exec \"$@\"", `sh -c 'exec "$@"' x tool`, []string{"/bin/sh"}, "known only when"},
		{"exec literal", `sh -c 'exec tool'`, []string{"/bin/sh", "$BIN/tool"}, ""},
		{"command -v", `sh -c 'command -v tool'`, []string{"/bin/sh"}, ""},
		{"source literal", "sh -c '. $ROOT/s/lib.sh; source $ROOT/s/lib2.sh'", []string{"/bin/sh", "$ROOT/s/lib.sh", "$ROOT/s/lib2.sh"}, ""},
		{"source variable", "sh -c '. $LIB'", []string{"/bin/sh"}, "known only when"},
		{"assignment prefix", "sh -c 'FOO=1 tool'", []string{"/bin/sh", "$BIN/tool"}, ""},
		{"PATH assigned", "sh -c 'PATH=/x; tool'", []string{"/bin/sh", "$BIN/tool"}, "PATH is assigned"},
		{"trap action", `sh -c 'trap "$T" EXIT'`, []string{"/bin/sh"}, "known only when"},
		{"trap literal", "sh -c \"trap '/usr/bin/true' EXIT\"", []string{"/bin/sh", "/usr/bin/true"}, ""},
		{"nested shells", `sh -c "bash -c '$ROOT/s/n.sh'"`, []string{"/bin/sh", "$BIN/bash", "$ROOT/s/n.sh"}, ""},
		{"parse error", "sh -c 'if'", []string{"/bin/sh"}, "cannot be parsed"},
		{"sh -c alone", "sh -c", []string{"/bin/sh"}, ""},
		{"nohup and timeout", "sh -c 'nohup tool; timeout -s KILL 5 tool2'", []string{"/bin/sh", "/usr/bin/nohup", "$BIN/tool", "/usr/bin/timeout", "$BIN/tool2"}, ""},
		{"xargs", "sh -c 'xargs tool'", []string{"/bin/sh", "/usr/bin/xargs"}, "xargs runs"},
		{"builtins run no file", "sh -c 'echo x; test -f y; [ -f z ]; printf q; true'", []string{"/bin/sh"}, ""},
		{"inline pipeline", `sh -c "cat | tool -r '.tool_input.command' >> ~/.claude/log.txt"`, []string{"/bin/sh", "/usr/bin/cat", "$BIN/tool"}, ""},
	}
}

// TestShebangLine: the #! line split as the kernel splits it, a CRLF line
// end not part of the interpreter; no #! line is not ok.
func TestShebangLine(t *testing.T) {
	for head, want := range map[string][3]string{
		"#!/bin/sh\necho":                  {"/bin/sh", "", "ok"},
		"#! /usr/bin/env  -S python3 -u\n": {"/usr/bin/env", "-S python3 -u", "ok"},
		"#!/bin/bash\r\n":                  {"/bin/bash", "", "ok"},
		"#!\n":                             {"", "", ""},
		"echo\n#!/bin/sh":                  {"", "", ""},
	} {
		interp, arg, ok := ShebangLine([]byte(head))
		if interp != want[0] || arg != want[1] || ok != (want[2] == "ok") {
			t.Errorf("%q: %q %q %v, want %q", head, interp, arg, ok, want)
		}
	}
}
