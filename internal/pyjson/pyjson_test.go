package pyjson

import (
	"os/exec"
	"strings"
	"testing"
)

func TestRoundTripKeepsOrder(t *testing.T) {
	in := `{"b": 1, "a": {"z": [1, 2.5, "x"], "y": null}, "c": true}`
	v, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Marshal(v, Options{})); got != in {
		t.Fatalf("got %s\nwant %s", got, in)
	}
	if got := string(Marshal(v, Options{Compact: true})); got != `{"b":1,"a":{"z":[1,2.5,"x"],"y":null},"c":true}` {
		t.Fatalf("compact: %s", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":1} x`, `[1,]`, `{1:2}`} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q): want error", in)
		}
	}
	if _, err := DecodeObject([]byte(`[]`)); err == nil || !strings.Contains(err.Error(), "a list") {
		t.Errorf("DecodeObject([]): %v", err)
	}
}

func TestObjectOps(t *testing.T) {
	o := NewObject().Set("a", 1).Set("b", 2).Set("a", 3)
	o.Delete("b")
	o.Set("c", "x")
	if got := o.String(); got != `{"a": 3, "c": "x"}` {
		t.Fatal(got)
	}
}

func TestMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	in := `{"z": "é\u2028<>&\u0001\"\\\n\t", "a": [], "m": {}, "n": [1, {"k": -0.5}], "f": 1e400}`
	v, err := Decode([]byte(strings.Replace(in, `1e400`, `12345678901234567890`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{}, {Indent: 2, SortKeys: true}} {
		got := string(Marshal(v, opts))
		script := `import json,sys
d=json.loads(sys.stdin.read())
sys.stdout.write(json.dumps(d, ensure_ascii=False, indent=` + map[bool]string{true: "2", false: "None"}[opts.Indent > 0] + `, sort_keys=` + map[bool]string{true: "True", false: "False"}[opts.SortKeys] + `))`
		cmd := exec.Command(py, "-c", script)
		cmd.Stdin = strings.NewReader(got)
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("opts %+v\n got: %s\nwant: %s", opts, got, want)
		}
	}
}
