package hookspec

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"unicode"
)

func TestPythonIntString(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"30", 30, true}, {" 30 ", 30, true}, {"+5", 5, true}, {"-0", 0, true}, {"00", 0, true}, {"1_0", 10, true},
		{"\u0663", 3, true}, {" \u0663 ", 3, true}, {"1\u0663", 13, true}, {"+\u0663", 3, true}, {"\u0663_\u0663", 33, true},
		{"\uff15", 5, true}, {"\U0001d7d3", 5, true}, {"\u20035\u3000", 5, true}, {"\u00a05", 5, true}, {"\t5\n", 5, true},
		{"99999999999999999999", 1<<63 - 1, true},
		{"", 0, false}, {" ", 0, false}, {"\x1c5\x1f", 0, false}, {"_1", 0, false}, {"1_", 0, false}, {"1__0", 0, false},
		{"- 3", 0, false}, {"1.0", 0, false}, {"0x10", 0, false}, {"\u00bd", 0, false}, {"\u2155", 0, false}, {"x", 0, false},
	} {
		got, ok := pythonIntString(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("pythonIntString(%q) = %d, %t; want %d, %t", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// Every character Go knows as a decimal digit has the value Python's int()
// gives it (the two Unicode tables may differ in version: characters
// Python does not know are skipped).
func TestDecimalValueMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	var digits []rune
	var want strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.Is(unicode.Nd, r) {
			digits = append(digits, r)
			fmt.Fprintf(&want, "%d\n", decimalValue(r))
		}
	}
	const script = `import sys
for c in sys.stdin.read():
    try:
        print(int(c))
    except ValueError:
        print("?")
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(digits))
	cmd.Env = append(cmd.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONUTF8=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	got, exp := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
	if len(got) != len(exp) {
		t.Fatalf("python printed %d lines for %d digits", len(got)-1, len(digits))
	}
	checked := 0
	for i, r := range digits {
		if got[i] == "?" {
			continue // newer than Python's Unicode tables
		}
		checked++
		if got[i] != exp[i] {
			t.Errorf("U+%04X: python %s, hermes %s", r, got[i], exp[i])
		}
	}
	if checked < 600 {
		t.Errorf("only %d digits compared", checked)
	}
}
