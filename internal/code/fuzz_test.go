package code

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzFind runs random shell strings through the finder: it never panics,
// a Memo (shared by every input, as by the hooks of one list) changes no
// finding, and two files named only as data — a redirect target and the argument
// of a program that is not an interpreter, appended after the fuzzed
// string — are never reported as code.
func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"tool a", `cd "$CLAUDE_PROJECT_DIR" && ./x.sh`, "$HOME/x.sh", "~/x.sh arg",
		"jq -r '.tool_input.command' >> ~/.claude/log.txt", "f() { tool; }; f", "eval $X",
		"cat <<EOF\n$(tool)\nEOF", "python3 -m mod", "bash -c 'sh -c \"tool\"'", "if a; then b; fi",
		"exec \"$@\"", ". ./lib.sh", "x=$(tool) y", "(cd /tmp && tool) | tool2 > out",
		"for i in *; do tool \"$i\"; done", "case $x in a) tool;; esac", "trap 'tool' EXIT",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		f.Fatal(err)
	}
	for _, name := range []string{"tool", "tool2"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("\x7fELF"), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		f.Fatal(err)
	}
	arg, target := filepath.Join(data, "arg.sh"), filepath.Join(data, "target.sh")
	for _, p := range []string{arg, target} {
		if err := os.WriteFile(p, []byte("echo\n"), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	env := Env{PATH: bin + ":/usr/bin:/bin", Home: filepath.Join(dir, "home"), ProjectDir: filepath.Join(dir, "proj")}
	withMemo := env
	withMemo.Memo = &Memo{}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Find(s, withMemo), Find(s, env); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: with a memo\n got %+v\nwant %+v", s, got, want)
		}
		alone := FindShell(s, env)
		if strings.Contains(s, "data") || strings.Contains(s, ".sh") || !alone.Pinnable && strings.Contains(alone.Reason, "parsed") {
			return
		}
		if trailing := len(s) - len(strings.TrimRight(s, `\`)); trailing%2 == 1 {
			// A backslash before the newline joins the next line to this
			// one (`<\` then makes arg.sh the command): it runs.
			return
		}
		got := FindShell(s+"\ntool "+arg+" > "+target+"\n", env)
		for _, file := range got.Files {
			if file.Path == arg || file.Path == target {
				t.Fatalf("%q: the data file %s reported as code: %+v", s, file.Path, got)
			}
		}
	})
}
