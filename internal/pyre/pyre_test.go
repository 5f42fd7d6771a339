package pyre

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Python's answers, pinned so the rules hold where python3 is absent.
func TestFullMatch(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		noMatch []string
	}{
		{`terminal|patch`, []string{"terminal", "patch"}, []string{"terminal2", "xpatch", ""}},
		{`(?!read_file$).*`, []string{"terminal", "write_file", ""}, []string{"read_file"}},
		{`(a)\1`, []string{"aa"}, []string{"a", "ab"}},
		{`(?P<n>x)(?P=n)`, []string{"xx"}, []string{"x"}},
		{`\d+`, []string{"123", "٣", "١٢٣"}, []string{"²", "a"}},
		{`\w+`, []string{"é", "aé1_", "²", "日本"}, []string{"a-b", "a b"}},
		{`[\w-]+`, []string{"a-b", "mcp__x-y"}, []string{"a b", "a.b"}},
		{`\s`, []string{"\x1c", "\u3000", "\u0085"}, []string{"\u200b", "a"}},
		{`a{,3}`, []string{"", "aaa"}, []string{"aaaa"}},
		{`a{,}`, []string{"", "aaaaa"}, []string{"b"}},
		{`a{`, []string{"a{"}, []string{"a"}},
		{`a\Z`, []string{"a"}, []string{"a\n"}},
		{`a$`, []string{"a"}, []string{"a\n"}}, // fullmatch: $ may sit before the newline, the match must not
		{`(?i)TERMINAL`, []string{"terminal", "Terminal"}, []string{"terminals"}},
		{`(?i)k`, []string{"k", "K", "\u212a"}, []string{"x"}},
		{`(?i)s`, []string{"ſ", "S"}, nil},
		{`(?ai)k`, []string{"k", "K"}, []string{"\u212a"}},
		{`(?a)\w+`, []string{"abc_1"}, []string{"é"}},
		{`(?<=a)b`, nil, []string{"b", "ab"}},
		{`a(?<=a)b?`, []string{"a", "ab"}, nil},
		{`(?x) read _ file  # a comment`, []string{"read_file"}, []string{"read _ file"}},
		{`(?>a|ab)c`, []string{"ac"}, []string{"abc"}},
		{`a*+a`, nil, []string{"aaa"}},
		{`(a)?(?(1)b|c)`, []string{"ab", "c"}, []string{"b", "ac"}},
		{`\bx\b`, []string{"x"}, nil},
		{`\B`, nil, []string{""}},
		{`.`, []string{"a"}, []string{"\n"}},
		{`(?s).`, []string{"\n"}, nil},
	}
	for _, tt := range tests {
		re, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		for _, s := range tt.match {
			if ok, err := re.FullMatch(s); !ok || err != nil {
				t.Errorf("%q does not match %q (%v)", tt.pattern, s, err)
			}
		}
		for _, s := range tt.noMatch {
			if ok, _ := re.FullMatch(s); ok {
				t.Errorf("%q matches %q", tt.pattern, s)
			}
		}
	}
}

// Patterns Python 3.11 refuses, with re.error's words.
func TestCompileRefuses(t *testing.T) {
	tests := []struct{ pattern, msg string }{
		{`\p{L}`, "bad escape \\p at position 0"},
		{`\z`, "bad escape \\z at position 0"},
		{`(?<n>x)`, "unknown extension ?<n at position 1"},
		{`\k<n>`, "bad escape \\k at position 0"},
		{`[terminal`, "unterminated character set at position 0"},
		{`*`, "nothing to repeat at position 0"},
		{`a**`, "multiple repeat at position 2"},
		{`(a`, "missing ), unterminated subpattern at position 0"},
		{`a)`, "unbalanced parenthesis at position 1"},
		{`(?<=a*)b`, "look-behind requires fixed-width pattern"},
		{`(?<=a|bc)d`, "look-behind requires fixed-width pattern"},
		{`a(?i)b`, "global flags not at the start of the expression at position 1"},
		{`\1`, "invalid group reference 1 at position 1"},
		{`(a\1)`, "cannot refer to an open group at position 2"},
		{`(?P=n)`, "unknown group name 'n' at position 4"},
		{`(?P<n>a)(?P<n>b)`, "redefinition of group name 'n' as group 2; was group 1 at position 12"},
		{`(?P<1>a)`, "bad character in group name '1' at position 4"},
		{`[z-a]`, "bad character range z-a at position 1"},
		{`a{2,1}`, "min repeat greater than max repeat at position 2"},
		{`a\`, "bad escape (end of pattern) at position 1"},
		{`(?L)a`, "bad inline flags: cannot use 'L' flag with a str pattern at position 3"},
		{`(?au)a`, "bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4"},
		{`\N{NO SUCH NAME}`, "undefined character name 'NO SUCH NAME' at position 0"},
		{`a{4294967295}`, "the repetition number is too large"},
		{strings.Repeat("(", 500) + strings.Repeat(")", 500), "maximum recursion depth exceeded"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.pattern)
		var e *Error
		if !errors.As(err, &e) || err.Error() != tt.msg {
			t.Errorf("Compile(%q) = %v, want %q", tt.pattern, err, tt.msg)
		}
	}
}

// A hostile pattern is abandoned after MatchTimeout instead of spinning.
func TestFullMatchTimesOut(t *testing.T) {
	re, err := Compile(`(a+)+b`)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ok, err := re.FullMatch(strings.Repeat("a", 60))
	if ok || !errors.Is(err, ErrTimeout) {
		t.Errorf("got %v, %v; want no match and ErrTimeout", ok, err)
	}
	if d := time.Since(start); d > 20*MatchTimeout {
		t.Errorf("took %v", d)
	}
}

func TestSimple(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		want    bool
	}{
		{`terminal|patch|write_file`, true},
		{`mcp__[\w-]+__create_\w+`, true},
		{`web_(search|fetch)`, true},
		{`read_.*`, true},
		{`(?i)web_(search|fetch)`, false},
		{`a|*`, false},
		{`a**`, false},
		{`a*?`, false},
		{`[a-z]`, false},
		{`[]a]`, false},
		{`(a`, false},
		{`a)`, false},
		{`\p{L}`, false},
		{`é`, false},
		{`^a$`, false},
	} {
		if got := simple(tt.pattern); got != tt.want {
			t.Errorf("simple(%q) = %v, want %v", tt.pattern, got, tt.want)
		}
	}
}

// SPEC §13.2 rule 5: past the deadline nothing runs, even a benign
// pattern; a hostile one is cut at the deadline.
func TestFullMatchBy(t *testing.T) {
	re, err := Compile(`a+`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := re.FullMatchBy("aaa", time.Now().Add(-time.Second)); ok || err != ErrTimeout {
		t.Fatalf("past the deadline: %v, %v", ok, err)
	}
	if ok, err := re.FullMatchBy("aaa", time.Now().Add(time.Hour)); !ok || err != nil {
		t.Fatalf("within the budget: %v, %v", ok, err)
	}
	hostile, err := Compile(`(a|aa)+b`)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := hostile.FullMatchBy(strings.Repeat("a", 80), time.Now().Add(10*time.Millisecond)); ok || err != ErrTimeout {
		t.Fatalf("hostile: %v, %v", ok, err)
	}
}
