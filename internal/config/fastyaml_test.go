package config

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// fastCases are inputs the fast reader takes (fast: true) or leaves to
// yaml.v3; either way Decode must give what yaml.v3 gives.
var fastCases = []struct {
	in   string
	fast bool
}{
	{"a: 1\n", true},
	{"\n\na: 1\nb:\n  - x: y\n    z: 10\n  -   q: r\nc:\n- 1\n- two\n", true},
	{"a: b  \n\n   \nc:   d", true},
	{"hooks:\n  pre_tool_call:\n    - command: /h/x.sh 0000123\n      timeout: 10\n    - matcher: terminal\n      command: ${HOME}/x.sh\n", true},
	{"hooks:\n  pre_tool_call:\n  - command: ~/x.sh\n    timeout: 1_0\n  post_tool_call:\n  - command: a:b\nhooks_auto_accept: yes\n", true},
	{"- a:\n  - x\n  b: 1\n- c\n", true},
	{"k: true\nl: ~\nm: Null\nn: .5\no: 0x1F\np: 2001-12-14\nq: +1\nr: 1e3\ns: .inf\nt: ~/x\nu: on\n", true},
	{"1: a\ntrue: b\nnull: c\n", true},
	{"a: x [y] {z}, w\n", true},
	{"a:\n  b:\n    c: d\n  e: f\ng: h\n", true},
	// Left to yaml.v3: each is something the fast reader does not read.
	{"", false},
	{"# comment\na: 1\n", false},
	{"a: 1 # comment\n", false},
	{"a: 'q'\n", false},
	{"a: \"q\"\n", false},
	{"a: &x 1\nb: *x\n", false},
	{"a: !!str 1\n", false},
	{"a: |\n  x\n", false},
	{"a: [1, 2]\n", false},
	{"a: {b: c}\n", false},
	{"a:\n", false},
	{"a:\nb: 1\n", false},
	{"a: x\n  y\n", false},
	{"- x\n  y\n", false},
	{"a:\tb\n", false},
	{"a: b\r\n", false},
	{"---\na: 1\n", false},
	{"a: 1\n---\nb: 2\n", false},
	{"a: 1\n...\n", false},
	{"%YAML 1.2\n---\na: 1\n", false},
	{"  a: 1\n", false},
	{"a: 1\n b: 2\n", false},
	{"a:\n  b: 1\n c: 2\n", false},
	{"a: b: c\n", false},
	{"<<: {a: 1}\n", false},
	{"a: é\n", false},
	{"\ufeffa: 1\n", false},
	{"-\n  a: 1\n", false},
	{"- - a\n", false},
	{"a: -1\n", false},
	{"? a\n: b\n", false},
	{"a: b:\n", false},
	{"just a scalar\n", false},
	{"a b: c\n", false},
	{"- a\nb: c\n", false},
	{"a:\n  - x\n   - y\n", false},
	{strings.Repeat("k", 1100) + ": v\n", false},
}

func TestDecodeFastMatchesYAML(t *testing.T) {
	for _, c := range fastCases {
		_, ok := decodeFast([]byte(c.in))
		if ok != c.fast {
			t.Errorf("%q: fast reader took it: %v, want %v", c.in, ok, c.fast)
		}
		checkDecodeSame(t, []byte(c.in))
	}
}

// TestDecodeFastBigConfig: a config of the shape SPEC §29 item 2 measures
// is read fast, and as yaml.v3 reads it.
func TestDecodeFastBigConfig(t *testing.T) {
	var b strings.Builder
	b.WriteString("model: gpt-4\nhooks:\n")
	for _, ev := range []string{"pre_tool_call", "post_llm_call"} {
		fmt.Fprintf(&b, "  %s:\n", ev)
		for i := range 2000 {
			if i%7 == 0 {
				b.WriteString("    - matcher: terminal\n")
				fmt.Fprintf(&b, "      command: ~/hooks/h.sh %07d\n", i)
			} else {
				fmt.Fprintf(&b, "    - command: ${HOME}/hooks/h.sh %07d\n", i)
			}
			b.WriteString("      timeout: 10\n")
		}
	}
	b.WriteString("hooks_auto_accept: false\n")
	if _, ok := decodeFast([]byte(b.String())); !ok {
		t.Fatal("the fast reader refused a plain big config")
	}
	checkDecodeSame(t, []byte(b.String()))
}

// checkDecodeSame: Decode (fast or not) gives yaml.v3's Decoding.
func checkDecodeSame(t *testing.T, body []byte) {
	t.Helper()
	got, want := Decode(body), decodeYAML(body)
	if (got.Panicked != nil) != (want.Panicked != nil) || fmt.Sprint(got.Err) != fmt.Sprint(want.Err) ||
		fmt.Sprint(got.SecondErr) != fmt.Sprint(want.SecondErr) || got.FirstRead != want.FirstRead {
		t.Fatalf("%q: Decode: err %v / %v, panic %v; yaml.v3: err %v / %v, panic %v",
			body, got.Err, got.SecondErr, got.Panicked, want.Err, want.SecondErr, want.Panicked)
	}
	if !reflect.DeepEqual(got.Doc, want.Doc) || !reflect.DeepEqual(got.Second, want.Second) {
		t.Fatalf("%q: Decode's tree differs from yaml.v3's:\n%s\nyaml.v3:\n%s", body, dumpNode(&got.Doc), dumpNode(&want.Doc))
	}
	if got.SecondErr != nil && want.SecondErr == io.EOF && got.SecondErr != io.EOF {
		t.Fatalf("%q: second document error %v", body, got.SecondErr)
	}
}

func dumpNode(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		fmt.Fprintf(&b, "%*skind %d style %d tag %q value %q at %d:%d\n", 2*depth, "", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column)
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// FuzzDecodeFast: on any input, Decode gives yaml.v3's reading.
func FuzzDecodeFast(f *testing.F) {
	for _, c := range fastCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkDecodeSame(t, []byte(in))
	})
}

func BenchmarkDecodeBig(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("hooks:\n  pre_tool_call:\n")
	for i := range 100000 {
		fmt.Fprintf(&sb, "    - command: /tmp/lb/home/hooks/hook-a.sh %07d\n      timeout: 10\n", i)
	}
	body := []byte(sb.String())
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			Decode(body)
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		for b.Loop() {
			decodeYAML(body)
		}
	})
}
