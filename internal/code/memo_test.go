package code

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// A Memo changes no finding: every command of TestFind, found twice with
// one Memo shared by all of them (the second time from what the first
// remembered), is found as without one.
func TestMemoFindsTheSame(t *testing.T) {
	fx := newFixture(t)
	t.Chdir(fx.root)
	memo := &Memo{}
	withMemo := fx.env
	withMemo.Memo = memo
	for round := range 2 {
		for _, tt := range findCases() {
			cmd := fx.expand(tt.cmd)
			want := Find(cmd, fx.env)
			if got := Find(cmd, withMemo); !reflect.DeepEqual(got, want) {
				t.Errorf("round %d, %s: with a memo\n got %+v\nwant %+v", round, tt.name, got, want)
			}
		}
	}
	for name, n := range map[string]int{"resolved": memo.reals.Len(), "regular": memo.regulars.Len(), "executable": memo.execs.Len(),
		"#! line": memo.shebangs.Len(), "head": memo.heads.Len(), "system": memo.systems.Len(), "program": memo.programs.Len()} {
		if n == 0 {
			t.Errorf("the memo remembered no %s answer: the test proves nothing of it", name)
		}
	}
}

// A program's code is remembered for the hooks that run it with other
// arguments only when they are not code: the first word of every command
// of TestFind, given arguments of each kind (none, plain, a script's name,
// a path, a "~", an option and inline code), is found with a Memo as
// without one, twice; and a code handed out is the caller's to change.
func TestMemoProgramWithOtherArguments(t *testing.T) {
	fx := newFixture(t)
	t.Chdir(fx.root)
	withMemo := fx.env
	withMemo.Memo = &Memo{}
	tails := [][]string{nil, {"0000001"}, {"--x", "0000002"}, {fx.expand("$ROOT/s/rules.sh")}, {"rules.py"},
		{fx.expand("$BIN/tool")}, {"~/x"}, {"-c", "echo hi"}, {"-m", "mod"}, {"-e", "print(1)"}, {"tool", "arg"}}
	for round := range 2 {
		for _, tt := range findCases() {
			argv := strings.Fields(fx.expand(tt.cmd))
			for _, tail := range tails {
				argv := append(argv[:1:1], tail...)
				want, _ := findArgv(argv, fx.env)
				got := FindArgv(argv, withMemo)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("round %d, %q: with a memo\n got %+v\nwant %+v", round, argv, got, want)
				}
				for i := range got.Files {
					got.Files[i].SHA256 = "changed by the caller"
				}
			}
		}
	}
	if withMemo.Memo.programs.Len() == 0 {
		t.Fatal("no program remembered: the test proves nothing")
	}
}

// System files are remembered per set of private folders: a memo that saw
// /usr/bin/env as a system file does not carry that into a finding whose
// home is /usr.
func TestMemoKeepsPrivateFoldersApart(t *testing.T) {
	memo := &Memo{}
	public := Env{PATH: "/usr/bin:/bin", Home: t.TempDir(), Memo: memo}
	private := Env{PATH: "/usr/bin:/bin", Home: "/usr", Memo: memo}
	for _, env := range []Env{public, private, public} {
		noMemo := env
		noMemo.Memo = nil
		if got, want := Find("/usr/bin/env true", env), Find("/usr/bin/env true", noMemo); !reflect.DeepEqual(got, want) {
			t.Errorf("home %s: with a memo\n got %+v\nwant %+v", env.Home, got, want)
		}
	}
}

// Many hooks over one script (protect --all of 100,000): the memo asks
// the disk about the script and its interpreter once.
func BenchmarkFindManyArgs(b *testing.B) {
	dir := b.TempDir()
	script := filepath.Join(dir, "h.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, memo := range []*Memo{nil, {}} {
		b.Run(fmt.Sprintf("memo=%v", memo != nil), func(b *testing.B) {
			env := Env{PATH: "/usr/bin:/bin", Home: dir, Memo: memo}
			for i := range b.N {
				FindArgv([]string{script, fmt.Sprintf("%07d", i)}, env)
			}
		})
	}
}

// HashBang is a script's #! line (line feed kept, 256 bytes at most), nil
// for a file without one or that is not regular (a FIFO does not block
// it), read once: a script rewritten after is answered as first read.
func TestMemoHashBang(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	long := "#!/" + strings.Repeat("x", 300) + "\n"
	m := &Memo{}
	for _, c := range []struct{ path, want string }{
		{write("a.sh", "#!/bin/sh -e\necho hi\n"), "#!/bin/sh -e\n"},
		{write("crlf.sh", "#!/bin/sh\r\necho\r\n"), "#!/bin/sh\r\n"},
		{write("plain.py", "print(1)\n"), ""},
		{write("long.sh", long), long[:256]},
		{fifo, ""},
		{filepath.Join(dir, "missing"), ""},
	} {
		if got := m.HashBang(c.path); string(got) != c.want {
			t.Errorf("%s: %q, want %q", filepath.Base(c.path), got, c.want)
		}
	}
	write("a.sh", "#!/bin/bash\n")
	if got := string(m.HashBang(filepath.Join(dir, "a.sh"))); got != "#!/bin/sh -e\n" {
		t.Errorf("read again: %q", got)
	}
}
