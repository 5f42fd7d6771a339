package pyjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

func TestPyNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1E2", "100.0"},
		{"1e-7", "1e-07"},
		{"-0", "0"},
		{"-0.0", "-0.0"},
		{"0", "0"},
		{"1.0", "1.0"},
		{"1e16", "1e+16"},
		{"1e15", "1000000000000000.0"},
		{"1e-5", "1e-05"},
		{"0.0001", "0.0001"},
		{"123456789012345678", "123456789012345678"},
		{"123456789012345678901234567890", "123456789012345678901234567890"},
		{"123456789012345678.0", "1.2345678901234568e+17"},
		{"0.1", "0.1"},
		{"1.5e300", "1.5e+300"},
		{"1e400", "Infinity"},
		{"-1e400", "-Infinity"},
		{"1e-400", "0.0"},
		{"-1e-400", "-0.0"},
		{"NaN", "NaN"},
		{"Infinity", "Infinity"},
		{"-Infinity", "-Infinity"},
		{"2.5E-3", "0.0025"},
	}
	for _, tt := range tests {
		if got := PyNumber(json.Number(tt.in)); got != tt.want {
			t.Errorf("PyNumber(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestDecodeLikePython(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": NaN, "b": [Infinity, -Infinity]}`, `{"a": NaN, "b": [Infinity, -Infinity]}`},
		{`{"a": 1, "b": 2, "a": 3}`, `{"a": 3, "b": 2}`},
		{` [1E2 , -0, "\ud83d\ude00\u00e9\/"] `, `[100.0, 0, "😀é/"]`},
		{`"\ud800x"`, `"` + "\ufffd" + `x"`},
	}
	for _, tt := range tests {
		v, err := Decode([]byte(tt.in))
		if err != nil {
			t.Errorf("Decode(%s): %v", tt.in, err)
			continue
		}
		if got := string(Marshal(v, Options{})); got != tt.want {
			t.Errorf("Decode(%s) written back = %s, want %s", tt.in, got, tt.want)
		}
	}
	bad := map[string]string{
		``:                              "Expecting value: line 1 column 1 (char 0)",
		`{`:                             "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
		`{"a":1} x`:                     "Extra data: line 1 column 9 (char 8)",
		`[1,]`:                          "Expecting value: line 1 column 4 (char 3)",
		`{1:2}`:                         "Expecting property name enclosed in double quotes",
		`nan`:                           "Expecting value",
		`-infinity`:                     "Expecting value",
		"\"a\tb\"":                      "Invalid control character at: line 1 column 3 (char 2)",
		`"\x"`:                          "Invalid \\escape",
		`"\u12"`:                        "Invalid \\uXXXX escape",
		`"abc`:                          "Unterminated string starting at: line 1 column 1 (char 0)",
		"[\n 1.]":                       "Expecting ',' delimiter: line 2 column 3 (char 4)",
		"\ufeff{}":                      "Expecting value",
		`01`:                            "Extra data",
		`{"a" 1}`:                       "Expecting ':' delimiter",
		strings.Repeat("[", maxDepth+2): "Nesting too deep",
	}
	for in, want := range bad {
		if _, err := Decode([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%.40q) error %v, want %q", in, err, want)
		}
	}
}

// TestEmbedRoundTrip: NaN survives encoding/json through the placeholder
// and comes out bare, as Python writes it; real strings are untouched.
func TestEmbedRoundTrip(t *testing.T) {
	obj, err := DecodeObject([]byte(`{"n": NaN, "i": [Infinity, -Infinity], "s": "/NaN", "t": "\\/NaN"}`))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(struct {
		O *Object `json:"o"`
	}{obj}); err != nil {
		t.Fatal(err)
	}
	got := string(RestoreNonFinite(buf.Bytes()))
	want := "{\n \"o\": {\n  \"n\": NaN,\n  \"i\": [\n   Infinity,\n   -Infinity\n  ],\n  \"s\": \"/NaN\",\n  \"t\": \"\\\\/NaN\"\n }\n}\n"
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func pythonPath(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not available")
	}
	return py
}

// numberCases generates JSON number spellings: integers of every size,
// decimals around the repr notation thresholds, random doubles written
// every way Go can, and values near the limits of float64.
func numberCases() []string {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := []string{"0", "-0", "0.0", "-0.0", "1E2", "1e-7", "1e16", "1e15", "9999999999999998",
		"9999999999999999.0", "1e22", "1e23", "5e-324", "2e-324", "1.7976931348623157e308", "1.8e308",
		"0.1", "0.2", "0.30000000000000004", "123456789012345678", "123456789012345678.0",
		"-123456789012345678901234567890123", "1e-4", "1e-5", "0.00012345", "1.5e-05", "100", "1.0e+0"}
	for e := -330; e <= 310; e += 7 {
		cases = append(cases, fmt.Sprintf("1e%d", e), fmt.Sprintf("-3.25E%+d", e))
	}
	for i := 0; i < 600; i++ {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		switch i % 4 {
		case 0:
			cases = append(cases, strconv.FormatFloat(f, 'e', -1, 64))
		case 1:
			cases = append(cases, strconv.FormatFloat(f, 'E', 20, 64))
		case 2:
			g := rng.Float64() * math.Pow(10, float64(rng.IntN(40)-20))
			cases = append(cases, strconv.FormatFloat(g, 'f', -1, 64))
		case 3:
			cases = append(cases, strconv.FormatInt(rng.Int64()>>rng.IntN(63), 10))
		}
	}
	return cases
}

// TestMarshalAgreesWithPython is the differential test of SPEC §14
// (payload bytes): for every number, json.dumps(json.loads(text)) and
// Marshal(Decode(text)) write the same bytes.
func TestMarshalAgreesWithPython(t *testing.T) {
	py := pythonPath(t)
	cases := numberCases()
	docs := make([]string, 0, len(cases)+4)
	for _, c := range cases {
		docs = append(docs, `{"n": `+c+`, "l": [`+c+`]}`)
	}
	docs = append(docs, `[NaN, Infinity, -Infinity]`, `{"é": "\u2028", "x": [1.0, 2, {"y": null}]}`,
		`{"a": 1, "a": 2}`, `"\u0000\u001f\u007f"`)
	script := `import json, sys
for line in sys.stdin:
    print(json.dumps(json.loads(line), ensure_ascii=False))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(docs, "\n") + "\n")
	cmd.Env = append(cmd.Environ(), "PYTHONIOENCODING=utf-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(docs) {
		t.Fatalf("python answered %d lines for %d documents", len(lines), len(docs))
	}
	for i, doc := range docs {
		v, err := Decode([]byte(doc))
		if err != nil {
			t.Errorf("Decode(%s): %v", doc, err)
			continue
		}
		if got := string(Marshal(v, Options{})); got != lines[i] {
			t.Errorf("%s\n  go:     %s\n  python: %s", doc, got, lines[i])
		}
	}
}

// FuzzDecode: whatever the bytes, Decode never panics, and what it reads
// writes back to text that reads back to the same text (Python's
// json.dumps(json.loads(x)) is stable the same way).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a": NaN, "b": [Infinity, -Infinity, 1E2, -0, 1e400]}`, `"\ud800"`, `[1.50, 12345678901234567890]`,
		"{\"a\": 1, \"a\": 2}", `-`, `[`, `"\u00e9\/"`} {
		f.Add([]byte(s))
	}
	// Large numeric inputs (the shape that made decoding quadratic) and a
	// wide object, whose keys are indexed.
	f.Add(benchDoc("numbers", 2_000))
	f.Add(benchDoc("literals", 2_000))
	f.Add(benchDoc("keys", 200))
	f.Add([]byte("[" + strings.Repeat("9", 5_000) + ", -" + strings.Repeat("1", 400) + "e-" + strings.Repeat("7", 300) + "]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
		if err != nil {
			return
		}
		checkIndex(t, v)
		out := Marshal(v, Options{})
		v2, err := Decode(out)
		if err != nil {
			t.Fatalf("rewrite %s of %q does not read back: %v", out, data, err)
		}
		if again := Marshal(v2, Options{}); !bytes.Equal(again, out) {
			t.Fatalf("not stable: %s then %s", out, again)
		}
	})
}

// checkIndex fails when an object's index disagrees with its members.
func checkIndex(t *testing.T, v any) {
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			checkIndex(t, item)
		}
	case *Object:
		for i, m := range v.Members() {
			if got := v.index(m.Key); got != i {
				t.Fatalf("index(%q) = %d, want %d", m.Key, got, i)
			}
			checkIndex(t, m.Value)
		}
	}
}
