package textsafe

import (
	"os/exec"
	"testing"
)

func TestLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain ascii /x.sh --flag", "plain ascii /x.sh --flag"},
		{"tab\tstays", "tab\tstays"},
		{"café ✓ 日本", "café ✓ 日本"},
		{`back\slash \x1b stays`, `back\slash \x1b stays`},
		{"hidden\r\x1b[2Kvisible", `hidden\r\x1b[2Kvisible`},
		{"two\nlines", `two\nlines`},
		{"nul\x00 del\x7f bell\a", `nul\x00 del\x7f bell\x07`},
		{"c1 \u0085 \u009b", `c1 \x85 \x9b`},
		{"bidi \u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c", `bidi \u202eevil\u202c \u2066x\u2069 \u200e\u200f\u061c`},
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff", `zero\u200bwidth\u200c\u200d\u2060\ufeff`},
		{"sep\u2028\u2029", `sep\u2028\u2029`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"", ""},
	} {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTextKeepsNewlines(t *testing.T) {
	in := "line one\n+echo safe\r\x1b[2K+curl evil | sh\n\u202e\n"
	want := "line one\n+echo safe\\r\\x1b[2K+curl evil | sh\n\\u202e\n"
	if got := Text(in); got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestNoCopyWhenClean(t *testing.T) {
	s := "nothing to escape here ✓"
	if allocs := testing.AllocsPerRun(100, func() { _ = Line(s) }); allocs != 0 {
		t.Errorf("Line of clean text allocates %v times", allocs)
	}
}

func FuzzLine(f *testing.F) {
	f.Add("a\r\x1b\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		for i, r := range out {
			if needsEscape(r, len(string(r)), false) && !(r == 0xfffd && out[i:i+3] == "\ufffd") {
				t.Fatalf("Line(%q) = %q still holds %U", s, out, r)
			}
		}
	})
}

// SPEC §24 item 6: a backslash is shown doubled in a command, so a
// literal \n and a newline differ; a command for pasting is shell-quoted,
// with $'…' where it holds what the terminal must not get raw.
func TestCommandAndShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		`/x.sh \n`:     `/x.sh \\n`,
		"/x.sh \n":     `/x.sh \n`,
		"a\x1b[31mb\\": `a\x1b[31mb\\`,
		"plain":        "plain",
	} {
		if got := Command(in); got != want {
			t.Errorf("Command(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"/x.sh":             "/x.sh",
		"/x y.sh":           "'/x y.sh'",
		"it's":              `'it'"'"'s'`,
		"a\nb":              `$'a\x0ab'`,
		"a\x1b'\\":          `$'a\x1b\'\\'`,
		"rm\u202e -rf \x85": `$'rm\u202e -rf \x85'`,
		"c1 \u0085":         `$'c1 \xc2\x85'`,
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
	// bash reads the $'…' word back as the original.
	if bash, err := exec.LookPath("bash"); err == nil {
		for _, in := range []string{"a\nb", "a\x1b'\\c", "rm\u202e -rf \x85\xff", "tab\there"} {
			out, err := exec.Command(bash, "-c", "printf %s "+ShellQuote(in)).Output()
			if err != nil || string(out) != in {
				t.Errorf("bash read %q back as %q (%v)", ShellQuote(in), out, err)
			}
		}
	}
}

// FuzzEscapeScan: escape's scan for the first byte to escape (ASCII read
// a byte at a time) agrees with escaping rune by rune from the start, in
// every mode.
func FuzzEscapeScan(f *testing.F) {
	f.Add("plain /x.sh 0000123")
	f.Add("a\tb\nc\\d\x7f\x1b\u202e\xff\u0085é")
	f.Fuzz(func(t *testing.T, s string) {
		for _, keep := range []bool{false, true} {
			for _, bs := range []bool{false, true} {
				if got, want := escape(s, keep, bs), escapeFrom(s, 0, keep, bs); got != want {
					t.Fatalf("escape(%q, %v, %v) = %q, rune by rune %q", s, keep, bs, got, want)
				}
			}
		}
	})
}

func TestEscapeScanEveryByte(t *testing.T) {
	long := "/home/u/.hermes/x.sh 00123" // read eight bytes at a time
	for c := range 256 {
		b := string([]byte{byte(c)})
		tries := []string{string(rune(c)), b, "ab" + b + "cd"}
		for at := range len(long) + 1 {
			tries = append(tries, long[:at]+b+long[at:], long[:at]+string(rune(c))+long[at:])
		}
		for _, s := range tries {
			for _, keep := range []bool{false, true} {
				for _, bs := range []bool{false, true} {
					if got, want := escape(s, keep, bs), escapeFrom(s, 0, keep, bs); got != want {
						t.Fatalf("escape(%q, %v, %v) = %q, rune by rune %q", s, keep, bs, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkCommandClean: the usual case list meets three times a hook, a
// command with nothing to escape (105 ns a byte at a time, 33 ns eight).
func BenchmarkCommandClean(b *testing.B) {
	s := "/home/u/.hermes/agent-hooks/hook-a.sh 0000003"
	for b.Loop() {
		Command(s)
	}
}
