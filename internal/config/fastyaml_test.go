package config

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"
)

// sameTree says where a and b differ ("" when they do not), comments
// aside.
func sameTree(a, b *yaml.Node, path string) string {
	return sameTreeIn(a, b, path, false, false)
}

// sameTreeIn is sameTree; isItem: a is an item of a list; inItem: a is
// inside an item of a list, where a stub is never left. A stub is read
// again, and must read as yaml.v3's node at its place.
func sameTreeIn(a, b *yaml.Node, path string, isItem, inItem bool) string {
	if a == nil || b == nil {
		if a != b {
			return path + ": one is nil"
		}
		return ""
	}
	if IsStub(a) {
		if inItem || !isItem {
			return path + ": a stub inside an item, or not an item"
		}
		if a.Kind != b.Kind || a.Tag != b.Tag || a.Style != 0 || a.Line != b.Line || a.Column != b.Column {
			return fmt.Sprintf("%s: stub {kind %v tag %q line %d col %d} yaml.v3 {kind %v tag %q line %d col %d}", path, a.Kind, a.Tag, a.Line, a.Column, b.Kind, b.Tag, b.Line, b.Column)
		}
		return sameTreeIn(Deref(a), b, path+"(stub)", false, true)
	}
	if isItem && !inItem && (a.Kind == yaml.MappingNode || a.Kind == yaml.SequenceNode) && Refusal(a) == nil {
		return path + ": an outermost item left whole"
	}
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s: fast {kind %v style %v tag %q value %q line %d col %d, %d children} yaml.v3 {kind %v style %v tag %q value %q line %d col %d, %d children}",
			path, a.Kind, a.Style, a.Tag, a.Value, a.Line, a.Column, len(a.Content), b.Kind, b.Style, b.Tag, b.Value, b.Line, b.Column, len(b.Content))
	}
	for i := range a.Content {
		if d := sameTreeIn(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i), a.Kind == yaml.SequenceNode, inItem || isItem); d != "" {
			return d
		}
	}
	return ""
}

// checkFast fails when the fast reader takes src and reads it otherwise
// than yaml.v3 (or takes what yaml.v3 refuses); it says whether it took it.
func checkFast(t *testing.T, src string) bool {
	t.Helper()
	fast, ok := fastDecode([]byte(src))
	checkParallel(t, src, fast, ok)
	if !ok {
		return false
	}
	slow := decodeYAMLv3([]byte(src))
	slow.Body = nil
	if _, fastToo := fastDecode(nil); fastToo {
		t.Fatal("an empty text is taken")
	}
	switch {
	case slow.Panicked != nil || slow.Err != nil:
		t.Fatalf("taken, but yaml.v3 refuses it (%v %v):\n%s", slow.Panicked, slow.Err, src)
	case slow.SecondErr == nil || slow.SecondErr.Error() != "EOF":
		t.Fatalf("taken, but yaml.v3 reads a second document or fails after the first (%v):\n%s", slow.SecondErr, src)
	}
	if d := sameTree(fast, &slow.Doc, ""); d != "" {
		t.Fatalf("read otherwise than yaml.v3: %s\n%s", d, src)
	}
	if p, _, _ := fastDecodeWith([]byte(src), nil); p.values != countValues(&slow.Doc) {
		t.Fatalf("counted %d values, yaml.v3's tree has %d:\n%s", p.values, countValues(&slow.Doc), src)
	}
	return true
}

// checkParallel fails when reading src's items on every CPU takes it or
// leaves it otherwise than reading them in turn (doc, ok), or reads a node
// otherwise, a stub's text included, or counts other values.
func checkParallel(t *testing.T, src string, doc *yaml.Node, ok bool) {
	t.Helper()
	p, par, parOK := fastDecodeIn([]byte(src), nil, true)
	if parOK != ok {
		t.Fatalf("taken %v on every CPU, %v in turn:\n%s", parOK, ok, src)
	}
	if !ok {
		return
	}
	if d := sameNodes(par, doc, ""); d != "" {
		t.Fatalf("read otherwise on every CPU: %s\n%s", d, src)
	}
	if serial, _, _ := fastDecodeIn([]byte(src), nil, false); p.values != serial.values {
		t.Fatalf("counted %d values on every CPU, %d in turn:\n%s", p.values, serial.values, src)
	}
}

// sameNodes says where trees a and b differ in any field but comments.
func sameNodes(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Content == nil) != (b.Content == nil) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s: %+v against %+v", path, *a, *b)
	}
	for i := range a.Content {
		if d := sameNodes(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// countValues counts the scalars that are not keys, and the aliases.
func countValues(n *yaml.Node) int {
	switch n.Kind {
	case yaml.ScalarNode, yaml.AliasNode:
		return 1
	}
	c := 0
	for i, k := range n.Content {
		if n.Kind != yaml.MappingNode || i%2 == 1 {
			c += countValues(k)
		}
	}
	return c
}

// TestFastDecodeTakes: the shapes configs are written in are taken, and
// read as yaml.v3 reads them.
func TestFastDecodeTakes(t *testing.T) {
	for _, src := range []string{
		"a: 1\n",
		"a: 1",
		"# head\n\nmodel: x   # the model\nhooks:\n  pre_tool_call:\n    - command: ~/.hermes/a.sh --x   # note\n      matcher: terminal\n      timeout: 10\n    - command: \"/opt/b c.sh\"\n  post_tool_call:\n  - command: 'it''s'\n    fail_closed: true\n",
		"a:\nb:\n  c:\n  d:   # empty\ne: ~\n",
		"a:\n- x\n-\n- y\nb:\n  - 1\n",
		"- a: 1\n  b:\n-   c: 'x'\n- plain\n-\n  - nested\n",
		"a: \"q\\\"\\\\ \\n\\t\"  # c\nb: x y  \nc: -5\nd: <<\n<<: x\n",
		"k: é x\né: 1\nw: 日本 # c\n",
		"  indented: root\n  second: 2\n",
		"n: x [not flow] in block\nm: a,b {c}\nq: a:b\nr: a#b\ns: -x\n",
		"ints: 0x1F\no: 0o17\nb: 0b101\nneg: -0b11\nu: 1_000\nf: 1.5e3\nd: .5\nt: 2001-12-14\nts: 2001-12-14 21:59:43.10\nv: 1.2.3\ny: yes\nN: Null\ninf: -.inf\nnan: .NaN\nplus: +12\n",
		"'quoted key': 1\n\"dq\": 2\n",
		"hooks_disabled:\n  - event: pre_tool_call\n    entry:\n      command: x\n",
		"a: 1\n# trailing comment\n\n",
		"x:\n  -   a: 1\n      b: 2\n  - c: 3\n",
	} {
		if !checkFast(t, src) {
			t.Errorf("not taken:\n%s", src)
		}
	}
}

// TestFastDecodeLeaves: what the fast reader does not read the same way
// as yaml.v3, or yaml.v3 refuses, is left to yaml.v3.
func TestFastDecodeLeaves(t *testing.T) {
	for _, src := range []string{
		"",
		"# only a comment\n",
		"a: {b: 1}\n",
		"a: [1, 2]\n",
		"a: &x 1\nb: *x\n",
		"a: !!str 1\n",
		"a: |\n  text\n",
		"a: >\n  text\n",
		"a: multi\n  line\n",
		"- a\n  b\n",
		"a:\tb\n",
		"a: 1\r\n",
		"---\na: 1\n",
		"a: 1\n...\n",
		"... :\n",            // a document end, then a key yaml.v3 refuses
		"a: 1\n... \nb: 2\n", // a document end with a space after it
		"a: 1\n---\nb: 2\n",
		"%YAML 1.1\n---\na: 1\n",
		"a: b: c\n",
		"a: \"unclosed\n",
		"a: \"\\x41\"\n",
		"a: 'x'#c\n",
		"a:\n  b: 1\n c: 2\n",
		"a:\n  - 1\n  b: 2\n",
		"- - x\n",
		"? a\n: b\n",
		"a: @x\n",
		"a: `x`\n",
		"just a scalar\n",
		"a: 1\nb\n",
		"\ufeffa: 1\n",
		"a: \u0085\n",
		"a: x\u2028y\n",
		"a: \x01\n",
		strings.Repeat("k", 1100) + ": 1\n",
		"a: \"\\/\"\n", // YAML 1.1 has no \/
		"a:\n    - x\n  - y\n",
		"a: -\n",
		"a: 'x' y\n",
	} {
		if checkFast(t, src) {
			t.Errorf("taken:\n%q", src)
		}
	}
}

// FuzzFastDecode: whatever the fast reader takes, yaml.v3 reads to the
// same tree.
func FuzzFastDecode(f *testing.F) {
	for _, src := range []string{
		"hooks:\n  pre_tool_call:\n    - command: ~/.hermes/a.sh --x   # note\n      matcher: terminal\n      timeout: 10\n",
		"a:\n- x\n-\n- y\nb:\n  - 1\n", "- a: 1\n  b:\n-   c: 'x'\n- plain\n-\n  - nested\n",
		"a: \"q\\\"\\\\ \\n\\t\"  # c\nb: x y  \nc: -5\nd: <<\n", "k: é x\né: 1\n", "t: 2001-12-14\nu: 1_0\nb: -0b1\n",
		"a: multi\n  line\n", "a:\n  b: 1\n c: 2\n", "a: 'it''s'\n",
	} {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkFast(t, string(src)) })
}

// TestFastDecodeGenerated compares the two readers on configs made of the
// pieces configs are made of, at random indentations: most are taken,
// some are not, and what is taken must be read alike.
func TestFastDecodeGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"a", "hooks", "command", "'q k'", "\"d\"", "k y", "<<", "1", "é", "a:b", "-k", "true"}
	values := []string{"", " x", " ~/.hermes/h.sh --x 'y'", " 10", " -5", " 0o7", " 1.5", " .5", " 2001-12-14", " yes", " null",
		" 'it''s'", " \"a\\\"b\\\\\"", " x # c", " x#c", " é", " <<", " a: b", " [x]", " -", " - x", "   # only", " 'x", " x  ", " +.inf", " 0b2", " 1_000", " 0x_1"}
	n, taken := 2000, 0
	if testing.Short() {
		n = 300
	}
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			ind := strings.Repeat(" ", rng.IntN(4)*2)
			switch rng.IntN(6) {
			case 0:
				b.WriteString(ind + "- " + keys[rng.IntN(len(keys))] + ":" + values[rng.IntN(len(values))] + "\n")
			case 1:
				b.WriteString(ind + "-" + values[rng.IntN(len(values))] + "\n")
			case 2:
				b.WriteString(ind + "# comment\n")
			case 3:
				b.WriteString("\n")
			default:
				b.WriteString(ind + keys[rng.IntN(len(keys))] + ":" + values[rng.IntN(len(values))] + "\n")
			}
		}
		if checkFast(t, b.String()) {
			taken++
		}
	}
	t.Logf("%d of %d taken", taken, n)
	if taken < n/20 {
		t.Errorf("only %d of %d taken: the generator no longer makes what the fast reader reads", taken, n)
	}
}

// TestFastDecodeGeneratedTrees: well-formed block documents of random
// shape, some with one line disturbed.
func TestFastDecodeGeneratedTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	scalars := []string{"x", "~/.hermes/h.sh --x 'y'", "10", "-5", "0o7", "1.5", ".5", "2001-12-14", "yes", "null", "~",
		"'it''s'", "\"a\\\"b\\\\\"", "x # c", "é ü", "<<", "+.inf", "1_000", "0b101", "a,b", "x [y]", "-x", "\"\"", "''", "a:b", "a#b"}
	keys := []string{"a", "hooks", "command", "'q k'", "\"d\"", "k y", "1", "é", "-k", "true", "<<"}
	var gen func(b *strings.Builder, indent int, depth int, inline bool)
	gen = func(b *strings.Builder, indent, depth int, inline bool) {
		pad := strings.Repeat(" ", indent)
		first := pad
		if inline {
			first = ""
		}
		if rng.IntN(2) == 0 { // a sequence
			for i := range 1 + rng.IntN(3) {
				p := pad
				if i == 0 {
					p = first
				}
				switch r := rng.IntN(4); {
				case depth > 2 || r == 0:
					fmt.Fprintf(b, "%s- %s\n", p, scalars[rng.IntN(len(scalars))])
				case r == 1:
					fmt.Fprintf(b, "%s-\n", p)
					gen(b, indent+2, depth+1, false)
				default:
					fmt.Fprintf(b, "%s-%s", p, strings.Repeat(" ", 1+rng.IntN(3)))
					gen(b, indent+2, depth+1, true) // a compact mapping
				}
			}
			return
		}
		// A compact mapping after "- " has its keys at the first key's
		// column, which the caller wrote spaces up to.
		col := indent
		if inline {
			col = len(b.String()) - strings.LastIndexByte(b.String(), '\n') - 1
			pad = strings.Repeat(" ", col)
		}
		for i := range 1 + rng.IntN(3) {
			p := pad
			if i == 0 {
				p = first
			}
			key := keys[rng.IntN(len(keys))]
			switch r := rng.IntN(5); {
			case depth > 2 || r < 2:
				fmt.Fprintf(b, "%s%s: %s\n", p, key, scalars[rng.IntN(len(scalars))])
			case r == 2:
				fmt.Fprintf(b, "%s%s:\n", p, key)
			case r == 3 && rng.IntN(2) == 0:
				fmt.Fprintf(b, "%s%s:   # c\n", p, key)
				gen(b, col+2+rng.IntN(2)*2, depth+1, false)
			default:
				fmt.Fprintf(b, "%s%s:\n", p, key)
				if rng.IntN(3) == 0 {
					// An indentless sequence: its entries at the key's column.
					for range 1 + rng.IntN(2) {
						fmt.Fprintf(b, "%s- %s\n", pad, scalars[rng.IntN(len(scalars))])
					}
				} else {
					gen(b, col+2, depth+1, false)
				}
			}
		}
	}
	n, taken := 3000, 0
	if testing.Short() {
		n = 500
	}
	for i := range n {
		var b strings.Builder
		gen(&b, rng.IntN(2)*2, 0, false)
		src := b.String()
		if i%3 == 0 { // disturb one line's indentation
			lines := strings.Split(src, "\n")
			j := rng.IntN(len(lines))
			lines[j] = strings.Repeat(" ", rng.IntN(3)) + lines[j]
			src = strings.Join(lines, "\n")
		}
		if checkFast(t, src) {
			taken++
		}
	}
	t.Logf("%d of %d taken", taken, n)
	if taken < n/2 {
		t.Errorf("only %d of %d taken", taken, n)
	}
}

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

func TestFastDecodeOtherCases(t *testing.T) {
	for _, c := range fastCases {
		if took := checkFast(t, c.in); c.fast && !took {
			t.Errorf("%q: not taken", c.in)
		}
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
	if !checkFast(t, b.String()) {
		t.Fatal("the fast reader refused a plain big config")
	}
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
			decodeYAMLv3(body)
		}
	})
}

// BenchmarkDecodeEmptyValues: keys with nothing after them (nulls), at two
// sizes; ns/hook must stay flat (each null's line was once counted from
// the top of the file, quadratic: 40,000 of them took 0.87 s).
func BenchmarkDecodeEmptyValues(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		var sb strings.Builder
		sb.WriteString("hooks:\n  pre_tool_call:\n")
		for i := range n {
			fmt.Fprintf(&sb, "    - command: /h/x.sh %d\n      matcher:\n", i)
		}
		body := []byte(sb.String())
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := fastDecode(body); !ok {
					b.Fatal("not taken")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
		})
	}
}

// TestFastDecodeOnTestdata: every YAML file of the repository's scenarios
// and example home, as people write them, is read by the fast reader as
// yaml.v3 reads it (or left to yaml.v3).
func TestFastDecodeOnTestdata(t *testing.T) {
	root := filepath.Join("..", "..")
	var taken, seen int
	check := func(name, src string) {
		seen++
		if checkFast(t, src) {
			taken++
		}
	}
	scripts, _ := filepath.Glob(filepath.Join(root, "testdata", "script", "*.txtar"))
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".yaml") || strings.HasSuffix(f.Name, ".yml") {
				check(p+":"+f.Name, string(f.Data))
			}
		}
	}
	filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			if data, err := os.ReadFile(p); err == nil {
				check(p, string(data))
			}
		}
		return nil
	})
	t.Logf("%d of %d YAML files taken", taken, seen)
	if seen < 50 || taken < seen/2 {
		t.Errorf("%d of %d YAML files taken", taken, seen)
	}
}

// TestDecimalIntIsParseInts: the plain scalars the shortcut calls !!int are
// ones resolve reads as an int anyway (base 0: a leading 0 is octal), and
// none is a timestamp.
func TestDecimalIntIsParseInts(t *testing.T) {
	tries := []string{"0", "00", "08", "010", "7", "10", "999999999999999999", "9999999999999999999", "1_0", "+1", "-1", "1e3", "0x1f", ""}
	for n := range 1000 {
		tries = append(tries, strconv.Itoa(n), fmt.Sprintf("%03d", n))
	}
	for _, v := range tries {
		_, err := strconv.ParseInt(v, 0, 64)
		if decimalInt(v) && (err != nil || isTimestamp(v)) {
			t.Errorf("%q taken as a decimal int: ParseInt says %v", v, err)
		}
	}
	for _, v := range []string{"0", "10", "999999999999999999"} {
		if !decimalInt(v) {
			t.Errorf("%q not taken as a decimal int", v)
		}
	}
}
