package shell

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// splitCases is the tokenizer's contract; TestSplitMatchesPython checks
// every row against the real shlex.split.
var splitCases = []struct {
	in      string
	want    []string
	wantErr string
}{
	{in: "", want: nil},
	{in: "   \t\n ", want: nil},
	{in: "a b  c", want: []string{"a", "b", "c"}},
	{in: " \tleading and trailing\r\n", want: []string{"leading", "and", "trailing"}},
	{in: "vertical\vtab\fformfeed", want: []string{"vertical\vtab\fformfeed"}},
	{in: "'single quoted' word", want: []string{"single quoted", "word"}},
	{in: `'no \escapes "here"'`, want: []string{`no \escapes "here"`}},
	{in: `"double quoted"`, want: []string{"double quoted"}},
	{in: `"esc \" and \\ only"`, want: []string{`esc " and \ only`}},
	{in: `"keeps \$ \` + "`" + ` \n \a"`, want: []string{`keeps \$ \` + "`" + ` \n \a`}},
	{in: "\"line\\\ncont\"", want: []string{"line\\\ncont"}},
	{in: `back\ slash\ space`, want: []string{"back slash space"}},
	{in: `\a\b\'\"`, want: []string{`ab'"`}},
	{in: "escaped\\\nnewline", want: []string{"escaped\nnewline"}},
	{in: `a"b c"d`, want: []string{"ab cd"}},
	{in: `a'b'"c"\d e`, want: []string{"abcd", "e"}},
	{in: `''`, want: []string{""}},
	{in: `"" x ''`, want: []string{"", "x", ""}},
	{in: `x ""`, want: []string{"x", ""}},
	{in: `''""''`, want: []string{""}},
	{in: `"'" '"'`, want: []string{"'", `"`}},
	{in: "# not a comment", want: []string{"#", "not", "a", "comment"}},
	{in: "a#b #c", want: []string{"a#b", "#c"}},
	{in: "$HOME *.sh a|b;c&&d >out", want: []string{"$HOME", "*.sh", "a|b;c&&d", ">out"}},
	{in: "~/hook.sh ~user", want: []string{"~/hook.sh", "~user"}},
	{in: "python3 /opt/h/ünïcødé.py 'é'", want: []string{"python3", "/opt/h/ünïcødé.py", "é"}},
	{in: "'it'\\''s'", want: []string{"it's"}},
	{in: `'unbalanced`, wantErr: "No closing quotation"},
	{in: `"unbalanced`, wantErr: "No closing quotation"},
	{in: `ok "a\"`, wantErr: "No closing quotation"},
	{in: `'`, wantErr: "No closing quotation"},
	{in: `trailing\`, wantErr: "No escaped character"},
	{in: `\`, wantErr: "No escaped character"},
}

func TestSplit(t *testing.T) {
	for _, tc := range splitCases {
		got, err := Split(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("Split(%q) = %q, %v; want error %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestSplitMatchesPython runs every table input through Python's shlex.split
// so the table itself cannot drift from the behaviour it claims to copy.
func TestSplitMatchesPython(t *testing.T) {
	inputs := make([]string, len(splitCases))
	for i, tc := range splitCases {
		inputs[i] = tc.in
	}
	for i, r := range pythonSplit(t, inputs) {
		tc := splitCases[i]
		if r.Error != tc.wantErr {
			t.Errorf("shlex.split(%q) error %q; table says %q", tc.in, r.Error, tc.wantErr)
			continue
		}
		if tc.wantErr == "" && !(len(r.Words) == 0 && len(tc.want) == 0) && !reflect.DeepEqual(r.Words, tc.want) {
			t.Errorf("shlex.split(%q) = %q; table says %q", tc.in, r.Words, tc.want)
		}
	}
}

// TestSplitMatchesPythonRandom: Split agrees with shlex.split on 3,000
// random strings of words, blanks, quotes and backslashes (plain runs
// that end a word, run into a quote or an escape, or follow one).
func TestSplitMatchesPythonRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"a", "bc", "/h/x.sh", "é", " ", "  ", "\t", "\n", "\\", "'", "\"", "#", "$HOME"}
	inputs := make([]string, 3000)
	for i := range inputs {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		inputs[i] = b.String()
	}
	for i, want := range pythonSplit(t, inputs) {
		got, err := Split(inputs[i])
		switch {
		case want.Error != "":
			if err == nil || err.Error() != want.Error {
				t.Errorf("Split(%q) = %q, %v; shlex.split says %q", inputs[i], got, err, want.Error)
			}
		case err != nil || !(len(got) == 0 && len(want.Words) == 0) && !reflect.DeepEqual(got, want.Words):
			t.Errorf("Split(%q) = %q, %v; shlex.split says %q", inputs[i], got, err, want.Words)
		}
	}
}

type pythonWords struct {
	Words []string `json:"words"`
	Error string   `json:"error"`
}

// pythonSplit is shlex.split of each input, by python3.
func pythonSplit(t *testing.T, inputs []string) []pythonWords {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	in, err := json.Marshal(inputs)
	if err != nil {
		t.Fatal(err)
	}
	const prog = `
import json, shlex, sys
out = []
for s in json.load(sys.stdin):
    try:
        out.append({"words": shlex.split(s)})
    except ValueError as e:
        out.append({"error": str(e)})
json.dump(out, sys.stdout)
`
	cmd := exec.Command(py, "-c", prog)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var results []pythonWords
	if err := json.Unmarshal(out, &results); err != nil || len(results) != len(inputs) {
		t.Fatalf("decoding python output %.200s: %v", out, err)
	}
	return results
}

func TestQuote(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "''"},
		{"plain-word_1.sh", "plain-word_1.sh"},
		{"/usr/bin/a@b%c+d=e:f,g", "/usr/bin/a@b%c+d=e:f,g"},
		{"has space", "'has space'"},
		{"it's", `'it'"'"'s'`},
		{"é", "'é'"},
		{"#", "'#'"},
	}
	for _, tc := range cases {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %q, want %q", tc.in, got, tc.want)
		}
		words, err := Split(Quote(tc.in))
		if err != nil || len(words) != 1 || words[0] != tc.in {
			t.Errorf("Split(Quote(%q)) = %q, %v", tc.in, words, err)
		}
	}
}
