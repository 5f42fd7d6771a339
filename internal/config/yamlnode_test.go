package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func parseNode(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	return Deref(&doc)
}

// TestResolve checks that scalars mean what they mean to PyYAML (YAML 1.1),
// the loader of the agent that reads the same file.
func TestResolve(t *testing.T) {
	tests := []struct {
		src  string
		kind Kind
		want any // bool, int64, float64 or string
	}{
		{"~", KindNull, nil}, {"null", KindNull, nil}, {"", KindNull, nil},
		{"true", KindBool, true}, {"False", KindBool, false}, {"yes", KindBool, true}, {"NO", KindBool, false},
		{"on", KindBool, true}, {"Off", KindBool, false},
		{"y", KindBool, true}, {"Y", KindBool, true}, {"n", KindBool, false}, {"N", KindBool, false}, // the agent's YAML 1.1 reader
		{"yES", KindString, "yES"}, {"'y'", KindString, "y"}, {"nn", KindString, "nn"}, {"tRue", KindString, "tRue"},
		{"'yes'", KindString, "yes"}, {`"true"`, KindString, "true"}, {"!!str true", KindString, "true"},
		{"30", KindInt, int64(30)}, {"-7", KindInt, int64(-7)}, {"+5", KindInt, int64(5)}, {"1_000", KindInt, int64(1000)},
		{"0x1F", KindInt, int64(31)}, {"017", KindInt, int64(15)}, {"0b101", KindInt, int64(5)}, {"1:30", KindInt, int64(90)},
		{"0", KindInt, int64(0)}, {"99999999999999999999999", KindInt, int64(math.MaxInt64)},
		{"09", KindString, "09"}, {"0o17", KindString, "0o17"}, {`"30"`, KindString, "30"}, {"!!int '42'", KindInt, int64(42)},
		{"2.9", KindFloat, 2.9}, {"-2.5", KindFloat, -2.5}, {"1.", KindFloat, 1.0}, {".5", KindFloat, 0.5},
		{"1.5e+3", KindFloat, 1500.0}, {".inf", KindFloat, math.Inf(1)}, {"-.Inf", KindFloat, math.Inf(-1)}, {"1:30.5", KindFloat, 90.5},
		{"1e3", KindString, "1e3"}, {"1E3", KindString, "1E3"}, {"1e+3", KindString, "1e+3"}, // no dot: a string, as in the agent
		{"1.0e3", KindFloat, 1000.0}, {"1.5e1", KindFloat, 15.0}, {"1.e3", KindFloat, 1000.0}, {"1.5E-1", KindFloat, 0.15},
		{".5e1", KindFloat, 5.0}, {"-1.0e3", KindFloat, -1000.0}, {"1_0.0e1", KindFloat, 100.0},
		{"1.0e", KindString, "1.0e"}, {"1.0e3.5", KindString, "1.0e3.5"},
		{"3.5x", KindString, "3.5x"}, {"!!float 3", KindFloat, 3.0},
		{"[1]", KindList, nil}, {"{a: 1}", KindMapping, nil},
	}
	for _, tt := range tests {
		n := parseNode(t, "v: "+tt.src)
		v := Resolve(n.Content[1])
		if v.Kind != tt.kind {
			t.Errorf("%q: kind %d, want %d", tt.src, v.Kind, tt.kind)
			continue
		}
		var got any
		switch v.Kind {
		case KindBool:
			got = v.Bool
		case KindInt:
			got = v.Int
		case KindFloat:
			got = v.Float
		case KindString:
			got = v.Str
		}
		if got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.src, got, tt.want)
		}
	}
	if v := Resolve(parseNode(t, "v: !!binary aGk=").Content[1]); v.Kind != KindBinary || v.Describe() != "binary data (!!binary)" {
		t.Errorf("!!binary: got %+v", v)
	}
	if v := Resolve(parseNode(t, "v: .nan").Content[1]); v.Kind != KindFloat || !math.IsNaN(v.Float) {
		t.Errorf(".nan: got %+v", v)
	}
}

func TestPairs(t *testing.T) {
	tests := []struct {
		src  string
		want string // key=value ... in order
		dups string
	}{
		{"{a: 1, b: 2}", "a=1 b=2", ""},
		{"{a: 1, b: 2, a: 3}", "a=3 b=2", "a"},
		{"base: &b {x: 1, y: 2}\nv: {<<: *b, y: 3, z: 4}", "x=1 y=3 z=4", ""},
		{"b1: &b1 {x: 1}\nb2: &b2 {x: 2, w: 0}\nv: {<<: [*b1, *b2], z: 4}", "x=1 w=0 z=4", ""},
		{"v: {'<<': 1}", "<<=1", ""},
		{"v: [1, 2]", "", ""},
	}
	for _, tt := range tests {
		root := parseNode(t, tt.src)
		pairs, dups := Pairs(root)
		if !strings.HasPrefix(tt.src, "{") {
			p, _ := Pairs(root)
			pairs, dups = Pairs(p[len(p)-1].Value)
		}
		var got, gotDups []string
		for _, p := range pairs {
			got = append(got, p.Key+"="+Resolve(p.Value).Node.Value)
		}
		for _, p := range dups {
			gotDups = append(gotDups, p.Key)
		}
		if strings.Join(got, " ") != tt.want || strings.Join(gotDups, " ") != tt.dups {
			t.Errorf("%q: pairs %v dups %v, want %q dups %q", tt.src, got, gotDups, tt.want, tt.dups)
		}
	}
}

func TestDerefStopsOnCycles(t *testing.T) {
	root := parseNode(t, "a: &x [*x]")
	list := Deref(root.Content[1])
	if list == nil || list.Kind != yaml.SequenceNode {
		t.Fatalf("got %+v", list)
	}
	if got := Deref(list.Content[0]); got != list {
		t.Errorf("alias resolves to %p, want the list %p", got, list)
	}
	// The walk in Load must not loop either.
	if _, err := Load(writeConfig(t, "a: &x [*x, {b: *x}]\nhooks: *x\n"), nil); err != nil {
		t.Fatal(err)
	}
}

// TestPairsMergeBomb: each level merges the previous one twice. Without
// memoisation this takes 2^64 steps, so the test would never finish.
// TestSmallPairsAgreesWithGeneral checks the fast path for small mappings
// without merge keys against the general one, repeated and odd keys
// included, and that it leaves merges and large mappings to pairs0.
func TestSmallPairsAgreesWithGeneral(t *testing.T) {
	srcs := []string{
		"{}",
		"{a: 1}",
		"{a: 1, b: 2, a: 3, b: 4, a: 5}",
		"{command: x, matcher: y, timeout: 1, command: z}",
		"{[1, 2]: a, {k: v}: b, [1, 2]: c}",
		"{'a': 1, a: 2, \"a\": 3}",
		"{~: 1, null: 2, '': 3}",
	}
	for _, src := range srcs {
		n := Deref(parseNode(t, src))
		fast, fastDups, ok := smallPairs(nil, n)
		if !ok {
			t.Fatalf("%s: not taken by the fast path", src)
		}
		slow, slowDups := pairs0(n, map[*yaml.Node][]Pair{}, map[*yaml.Node]bool{})
		if !reflect.DeepEqual(fast, slow) || !reflect.DeepEqual(fastDups, slowDups) {
			t.Errorf("%s:\nfast %v dups %v\nslow %v dups %v", src, fast, fastDups, slow, slowDups)
		}
		// Into a buffer holding an earlier mapping's pairs: the same.
		buf := []Pair{{Key: "stale"}, {Key: "a"}, {Key: "command"}}
		into, intoDups := PairsInto(buf, n)
		if len(into) != len(slow) || len(slow) > 0 && !reflect.DeepEqual(into, slow) || !reflect.DeepEqual(intoDups, slowDups) {
			t.Errorf("%s into a used buffer:\n%v dups %v\nslow %v dups %v", src, into, intoDups, slow, slowDups)
		}
	}
	var big strings.Builder
	big.WriteString("{")
	for i := 0; i < 17; i++ {
		fmt.Fprintf(&big, "k%d: %d, ", i, i)
	}
	big.WriteString("}")
	for _, src := range []string{"base: &b {x: 1}\nv: {<<: *b}", big.String(), "[1]", "x"} {
		n := Deref(parseNode(t, src))
		if n.Kind == yaml.MappingNode && strings.HasPrefix(src, "base") {
			n = n.Content[3]
		}
		if _, _, ok := smallPairs(nil, n); ok {
			t.Errorf("%q: taken by the fast path", src)
		}
	}
}

func TestPairsMergeBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 {x: 1}\n")
	for i := 1; i <= 64; i++ {
		fmt.Fprintf(&b, "a%d: &a%d {<<: [*a%d, *a%d], k%d: %d}\n", i, i, i-1, i-1, i, i)
	}
	b.WriteString("self: &s {<<: *s, y: 2}\n")
	root := parseNode(t, b.String())
	top, _ := Pairs(root)
	last, _ := Pairs(top[64].Value)
	if len(last) != 65 || last[0].Key != "x" {
		t.Errorf("a64 has %d keys (first %q), want 65 starting with x", len(last), last[0].Key)
	}
	if self, _ := Pairs(top[65].Value); len(self) != 1 || self[0].Key != "y" {
		t.Errorf("self-merge = %v, want only y", self)
	}
}

// TestPlainDecimalIsPyInt checks the shortcut Resolve takes for integers
// against the resolver expression it stands in for.
func TestPlainDecimalIsPyInt(t *testing.T) {
	for _, s := range []string{"0", "00", "7", "10", "010", "1_0", "-1", "+1", "", "1a", "99999999999999999999", "1.0", "1:30", "０", "١"} {
		plain := isPlainDecimal(s)
		if plain && !pyInt().MatchString(s) {
			t.Errorf("%q: taken as a plain decimal, but PyYAML's int resolver refuses it", s)
		}
		digits := s != "" && strings.Trim(s, "0123456789") == "" && (s == "0" || s[0] != '0')
		if plain != digits {
			t.Errorf("isPlainDecimal(%q) = %v", s, plain)
		}
	}
}
