package pystr

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode"
)

func TestStrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  a b  ", "a b"},
		{"\x1c\x1d\x1e\x1fa\x1f", "a"},
		{"\u00a0\u0085x\u3000\u2028\u2029", "x"},
		{"\u2000\u200ay\u202f\u205f", "y"},
		{"\u200bz\u200b", "\u200bz\u200b"}, // zero-width space is not white space
		{"\ufeffq", "\ufeffq"},
		{"\x00a\x00", "\x00a\x00"},
		{"", ""},
		{" \t\n\r\v\f", ""},
	}
	for _, tt := range tests {
		if got := Strip(tt.in); got != tt.want {
			t.Errorf("Strip(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"a\r\nb\rc\n\r", "a\nb\nc\n\n"},
		{"\r\r\n", "\n\n"},
		{"\xe2\x82", "\ufffd"},
		{"\xff\xfe", "\ufffd\ufffd"},
		{"\xe2\x82A", "\ufffdA"},
		{"\xf0\x9f\x98", "\ufffd"},
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"},
		{"\xc0\xaf", "\ufffd\ufffd"},
		{"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xe0\x80\x80", "\ufffd\ufffd\ufffd"},
		{"\xf0\x80", "\ufffd\ufffd"},
		{"é€😀", "é€😀"},
		{"\xe2\x82\r\n", "\ufffd\n"},
	}
	for _, tt := range tests {
		if got := DecodeText([]byte(tt.in)); got != tt.want {
			t.Errorf("DecodeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not available")
	}
	return py
}

// TestIsSpaceAgreesWithPython compares the whole code space with
// str.isspace().
func TestIsSpaceAgreesWithPython(t *testing.T) {
	py := python(t)
	out, err := exec.Command(py, "-c",
		`import sys; sys.stdout.write(" ".join(str(i) for i in range(0x110000) if chr(i).isspace()))`).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := map[rune]bool{}
	for _, f := range strings.Fields(string(out)) {
		var r rune
		for _, c := range f {
			r = r*10 + c - '0'
		}
		want[r] = true
	}
	if len(want) < 25 {
		t.Fatalf("python listed only %d spaces", len(want))
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if IsSpace(r) != want[r] {
			t.Errorf("IsSpace(%U) = %v, python says %v", r, IsSpace(r), want[r])
		}
	}
}

// TestDecodeTextAgreesWithPython feeds random byte strings, biased towards
// UTF-8 lead and continuation bytes and carriage returns, through both.
func TestDecodeTextAgreesWithPython(t *testing.T) {
	py := python(t)
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', '\r', '\n', 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
		0xe0, 0xe1, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf4, 0xf5, 0xff}
	var cases [][]byte
	for i := 0; i < 2000; i++ {
		b := make([]byte, 1+rng.IntN(8))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, b)
	}
	var in bytes.Buffer
	for _, c := range cases {
		in.WriteString(hex.EncodeToString(c) + "\n")
	}
	script := `import sys
for line in sys.stdin:
    b = bytes.fromhex(line.strip())
    s = b.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")
    print(s.encode("utf-8").hex())
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("python answered %d lines for %d cases", len(lines), len(cases))
	}
	for i, c := range cases {
		if got := hex.EncodeToString([]byte(DecodeText(c))); got != lines[i] {
			t.Errorf("DecodeText(%x) = %s, python %s", c, got, lines[i])
		}
	}
}
