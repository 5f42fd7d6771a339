package edit

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// TestMayNest: an item whose text has a key with a block value under it
// is read to learn the layout; one with none is not (mayNest may say yes
// for nothing, never no for a key with a block value).
func TestMayNest(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"    - command: x\n      timeout: 1", false},
		{"    - command: 'a # b:'", false},
		{"    - env:\n        A: 1", true},
		{"    - env:   # the environment\n        A: 1", true},
		{"    - 'a #b':\n        - 1", true},
		{"    - 'a #b': # c: d\n        - 1", true},
		{"    -\n      - x", false},
		{"    -\n      - args:\n        - 1", true},
		{"    - a: 1 # x:", true}, // a comment that looks like a key: read, to no harm
	} {
		if got := mayNest(c.text); got != c.want {
			t.Errorf("mayNest(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// TestLayoutLooksInsideStubs: the layout is learned inside the items of
// the part being edited, as it was before they were stubs: here the only
// nested mapping under hooks: is inside a hook (4 spaces), which wins
// over the file's top level (2).
func TestLayoutLooksInsideStubs(t *testing.T) {
	src := "hooks:\n  pre_tool_call:\n  - command: a\n  - command: b\n    env:\n        A: 1\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	hooks := d.Lookup([]string{"hooks"})
	if items := hooks.Content[1].Content; !config.IsStub(items[0]) || !config.IsStub(items[1]) {
		t.Fatal("the items are not stubs")
	}
	if got, want := d.layoutOf(hooks), (layout{unit: 4, seqIndent: 0, itemOff: 2}); got != want {
		t.Errorf("layout %+v, want %+v", got, want)
	}
	out, err := d.Append([]string{"hooks", "post_tool_call"}, []Field{{Key: "command", Value: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := src + "  post_tool_call:\n  - command: c\n"; string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestSetTrueInStubs: fail_closed: true goes under the command of a
// stub's item whether the command is the item's last key (what follows
// is the next item, past a comment: found in the document's tree) or not
// (found in the item's).
func TestSetTrueInStubs(t *testing.T) {
	src := "hooks:\n  pre_tool_call:\n    - timeout: 1\n      command: a.sh\n    # next\n    - command: b.sh\n      timeout: 2\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := d.SetTrue([]string{"hooks"}, "fail_closed", func(string, int, string) bool { return true })
	if err != nil || n != 2 {
		t.Fatalf("%d set, %v", n, err)
	}
	want := "hooks:\n  pre_tool_call:\n    - timeout: 1\n      command: a.sh\n      fail_closed: true\n    # next\n    - command: b.sh\n      fail_closed: true\n      timeout: 2\n"
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

// TestCompareCycleStops: two readings of an anchor holding an alias to
// itself are compared to a bounded depth, whatever the budget: it used to
// overflow the stack (FuzzAppendRemove found it). The comparison ends over
// budget, so the check falls back to yaml.v3's reading.
func TestCompareCycleStops(t *testing.T) {
	src := "a: &x\n  - k: *x\n    j: 1\n"
	var a, b yaml.Node
	if err := yaml.Unmarshal([]byte(src), &a); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(strings.Replace(src, "j: 1", "j: 2", 1)), &b); err != nil {
		t.Fatal(err)
	}
	c := comparer{budget: 1 << 40}
	if c.sameNode(&a, &b) || c.budget >= 0 || c.depth != 0 {
		t.Errorf("compared: budget %d, depth %d", c.budget, c.depth)
	}
}
