package config

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// stubDoc has an item of each shape an outermost list holds: a mapping
// on its "-" line with a comment on it, a mapping starting below its "-"
// past a comment, a list, a scalar, and one at the end of the file with
// no line feed; comments and blank lines between items.
const stubDoc = `hooks:
  pre_tool_call:
    - command: a.sh   # first
      timeout: 10

    # between
    -
      # above its first key
      command: b.sh
      matcher: terminal
    -
      - x
      - y: 1
    - plain
  post_tool_call:
    - command: c.sh
      timeout: 5`

// TestStubs: each item of an outermost list that is a mapping or a list
// is left a stub holding its lines from its "-"'s line to its last
// content line (no comment or blank line after it), at the item's own
// line and column; a scalar item stays as it is; Deref reads each back as
// yaml.v3 reads it there (checkFast, which also holds the stubs' places).
func TestStubs(t *testing.T) {
	if !checkFast(t, stubDoc) {
		t.Fatal("not taken")
	}
	doc, _ := fastDecode([]byte(stubDoc))
	hooks := doc.Content[0].Content[1]
	pre, post := hooks.Content[1].Content, hooks.Content[3].Content
	want := []struct {
		n          *yaml.Node
		stub       bool
		line, col  int
		text, kind string
	}{
		{pre[0], true, 3, 7, "    - command: a.sh   # first\n      timeout: 10", "!!map"},
		{pre[1], true, 9, 7, "    -\n      # above its first key\n      command: b.sh\n      matcher: terminal", "!!map"},
		{pre[2], true, 12, 7, "    -\n      - x\n      - y: 1", "!!seq"},
		{pre[3], false, 14, 7, "", "!!str"},
		{post[0], true, 16, 7, "    - command: c.sh\n      timeout: 5", "!!map"},
	}
	for i, w := range want {
		n := w.n
		if IsStub(n) != w.stub || n.Line != w.line || n.Column != w.col || n.Tag != w.kind || (w.stub && n.Value != w.text) {
			t.Errorf("item %d: stub %v at %d:%d %s %q, want stub %v at %d:%d %s %q", i, IsStub(n), n.Line, n.Column, n.Tag, n.Value, w.stub, w.line, w.col, w.kind, w.text)
		}
	}
	// Read twice, the same item afresh each time.
	if a, b := Deref(pre[1]), Deref(pre[1]); a == b || a.Content[1].Value != "b.sh" || b.Content[1].Line != 9 {
		t.Errorf("Deref gave %p and %p, %q at line %d", a, b, a.Content[1].Value, b.Content[1].Line)
	}
}

// TestSameStub: a stub holds the same item as another when its text is
// the same, wherever the item is; a line of it changed, or indented
// otherwise, is not the same.
func TestSameStub(t *testing.T) {
	items := func(src string) []*yaml.Node {
		t.Helper()
		doc, ok := fastDecode([]byte(src))
		if !ok {
			t.Fatalf("not taken: %q", src)
		}
		top := doc.Content[0].Content
		return top[len(top)-1].Content // the last key's, l's
	}
	a := items("l:\n  - command: x\n    timeout: 1\n")
	moved := items("top: 1\nother: 2\nl:\n  - command: y\n  - command: x\n    timeout: 1\n")
	if !SameStub(a[0], moved[1]) || a[0].Line == moved[1].Line {
		t.Errorf("the same item lines apart: same %v", SameStub(a[0], moved[1]))
	}
	for _, other := range []string{
		"l:\n  - command: x\n    timeout: 2\n",
		"l:\n  - command: x\n    timeout: 1 # c\n",
		"l:\n    - command: x\n      timeout: 1\n",
		"l:\n  - command: x\n\n    timeout: 1\n",
	} {
		if b := items(other); SameStub(a[0], b[0]) {
			t.Errorf("%q: the same as %q", b[0].Value, a[0].Value)
		}
	}
}

// TestRefusedItemStaysWhole: an item the agent refuses (a key twice) is
// not left a stub, so Refusal of the tree, and Load, name it and its
// line; the items around it are stubs.
func TestRefusedItemStaysWhole(t *testing.T) {
	src := "hooks:\n  pre_tool_call:\n    - command: a\n    - command: b\n      timeout: 1\n      command: c\n    - command: d\n"
	doc, ok := fastDecode([]byte(src))
	if !ok {
		t.Fatal("not taken")
	}
	items := doc.Content[0].Content[1].Content[1].Content
	if !IsStub(items[0]) || IsStub(items[1]) || !IsStub(items[2]) || len(items[1].Content) != 6 {
		t.Fatalf("stubs: %v %v %v", IsStub(items[0]), IsStub(items[1]), IsStub(items[2]))
	}
	if r := Refusal(doc); r == nil || r.Line != 6 || !strings.Contains(r.Reason, `duplicate key "command"`) {
		t.Errorf("Refusal = %v", r)
	}
	if _, err := Load(writeConfig(t, src), nil); err == nil || !strings.Contains(err.Error(), ":6:") && !strings.Contains(err.Error(), "line 6") {
		t.Errorf("Load: %v", err)
	}
}

// TestItemReader: a reader reads each stub's item as Deref does, into
// the same memory; what is not a stub it hands back as it is.
func TestItemReader(t *testing.T) {
	doc, _ := fastDecode([]byte(stubDoc))
	hooks := doc.Content[0].Content[1]
	pre := hooks.Content[1].Content
	var r ItemReader
	for round := range 2 {
		for i, n := range pre {
			got := r.Read(n)
			if !IsStub(n) {
				if got != n {
					t.Errorf("item %d: not a stub, read as another node", i)
				}
				continue
			}
			if d := sameTreeIn(got, Deref(n), "", false, true); d != "" {
				t.Errorf("round %d, item %d: %s", round, i, d)
			}
		}
	}
	first := &r.arena.nodes[0]
	r.Read(pre[0])
	if r.Read(pre[1]) != nil && &r.arena.nodes[0] != first {
		t.Error("the reader's memory was not used again")
	}
}

// TestItemExpands: File.Item expands ${VAR} in a stub's item, with its
// own expansions; an item with no reference has none; a file yaml.v3
// read (a flow list makes it) has no stubs, and Item hands its items
// back with the file's expansions.
func TestItemExpands(t *testing.T) {
	env := MapEnv(map[string]string{"D": "/opt"})
	f, err := Load(writeConfig(t, "hooks:\n  pre_tool_call:\n    - command: ${D}/a.sh\n    - command: b.sh\n"), env)
	if err != nil {
		t.Fatal(err)
	}
	items := f.Hooks.Content[1].Content
	a, ax := f.Item(nil, items[0])
	if v := Resolve(a.Content[1]); v.Str != "/opt/a.sh" || ax[a.Content[1]].Written != "${D}/a.sh" {
		t.Errorf("item 0: %q, written %q", v.Str, ax[a.Content[1]].Written)
	}
	if _, bx := f.Item(nil, items[1]); bx != nil {
		t.Errorf("item 1: expansions %v", bx)
	}
	g, err := Load(writeConfig(t, "x: [1]\nhooks:\n  pre_tool_call:\n    - command: ${D}/a.sh\n"), env)
	if err != nil {
		t.Fatal(err)
	}
	item := g.Hooks.Content[1].Content[0]
	if got, gx := g.Item(nil, item); IsStub(item) || got != item || len(gx) != 1 || Resolve(got.Content[1]).Str != "/opt/a.sh" {
		t.Errorf("yaml.v3's item: stub %v, same %v, expansions %d", IsStub(item), got == item, len(gx))
	}
}

// TestTakeDecodingByText: a fast decoding is taken by the same bytes
// (compared with the text it kept), not by others; yaml.v3's by its bytes.
func TestTakeDecodingByText(t *testing.T) {
	defer OfferDecoding(nil)
	for _, src := range []string{"a:\n  - b: 1\n", "a: [1]\n"} {
		p := Decode([]byte(src))
		if p.Fast != (src[3] != '[') || (p.Fast && (p.Body != nil || p.Text != src)) {
			t.Fatalf("%q: fast %v, body %q, text %q", src, p.Fast, p.Body, p.Text)
		}
		OfferDecoding(p)
		if TakeDecoding([]byte(src+" ")) != nil {
			t.Errorf("%q: taken by other bytes", src)
		}
		if TakeDecoding([]byte(src)) != p || TakeDecoding([]byte(src)) != nil {
			t.Errorf("%q: not taken once by the same bytes", src)
		}
	}
}
