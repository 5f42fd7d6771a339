package edit

import (
	"strings"
	"testing"
)

const checkBase = `hooks:
  pre_tool_call:
  - command: a
    timeout: 10
  - command: b
    matcher: on
  post_tool_call:
  - command: c
    args:
    - x
    - y
other:
- 1
- 2
`

func identity(v any) (any, error) { return v, nil }

// TestCheckEachItem: the check that compares a config's list items one at
// a time, as they are read, catches what the check of the whole trees
// catches: an item read differently by the agent, reordered, added,
// dropped or refused, and passes what it passes.
func TestCheckEachItem(t *testing.T) {
	d, err := Parse([]byte(checkBase))
	if err != nil {
		t.Fatal(err)
	}
	appendD := func(old any) (any, error) {
		return appendValue(old, []string{"hooks", "pre_tool_call"}, [][]Field{{{"command", "d"}}})
	}
	for _, c := range []struct {
		name, from, to string
		want           func(any) (any, error)
		bad            string // in the error, "" for none
	}{
		{"unchanged", "", "", identity, ""},
		{"keys reordered", "  - command: a\n    timeout: 10\n", "  - timeout: 10\n    command: a\n", identity, ""},
		{"quoted alike", "command: c", "command: 'c'", identity, ""},
		{"number now a string", "timeout: 10", "timeout: '10'", identity, "read back"},
		{"boolean now a string", "matcher: on", "matcher: 'on'", identity, "read back"},
		{"nested list item", "    - y\n", "    - z\n", identity, "read back"},
		{"items swapped", "  - command: a\n    timeout: 10\n  - command: b\n    matcher: on\n", "  - command: b\n    matcher: on\n  - command: a\n    timeout: 10\n", identity, "read back"},
		{"item dropped", "  - command: c\n    args:\n    - x\n    - y\n", "  - command: c\n", identity, "read back"},
		{"duplicate key", "  - command: b\n", "  - command: b\n    command: b\n", identity, "duplicate key"},
		{"outside the lists", "- 2\n", "- 3\n", identity, "read back"},
		{"a scalar item, now a string", "- 2\n", "- '2'\n", identity, "read back"},
		{"appended", "  post_tool_call:", "  - command: d\n  post_tool_call:", appendD, ""},
		{"appended twice", "  post_tool_call:", "  - command: d\n  - command: d\n  post_tool_call:", appendD, "read back"},
		{"appended, a boolean", "  post_tool_call:", "  - command: yes\n  post_tool_call:", appendD, "read back"},
	} {
		body := []byte(strings.Replace(checkBase, c.from, c.to, 1))
		cmp := comparer{budget: maxAgentNodes}
		oldA, _ := agentViewOf(d.root, len(d.body))
		expA, err := c.want(oldA)
		if err != nil {
			t.Fatal(err)
		}
		each, done := d.checkEachItem(body, expA, &cmp)
		if !done {
			t.Errorf("%s: not checked item by item", c.name)
			continue
		}
		whole := d.checkWhole(body, c.want, d.expect(c.want))
		if (each == nil) != (c.bad == "") || (each != nil && !strings.Contains(each.Error(), c.bad)) {
			t.Errorf("%s: item by item: %v, want %q", c.name, each, c.bad)
		}
		if (whole == nil) != (each == nil) {
			t.Errorf("%s: whole %v, item by item %v", c.name, whole, each)
		}
	}
}

// FuzzCheckEachItem: on any edited text, the item-by-item check and the
// check of the whole trees agree.
func FuzzCheckEachItem(f *testing.F) {
	f.Add([]byte(checkBase), []byte(strings.Replace(checkBase, "timeout: 10", "timeout: '10'", 1)))
	f.Add([]byte(checkBase), []byte(checkBase))
	for _, in := range goldenInputs(f) {
		f.Add(in, in)
	}
	f.Fuzz(func(t *testing.T, src, body []byte) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		oldA, ok := agentViewOf(d.root, len(d.body))
		if !ok {
			return
		}
		cmp := comparer{budget: maxAgentNodes}
		each, done := d.checkEachItem(body, oldA, &cmp)
		if !done {
			return
		}
		if whole := d.checkWhole(body, identity, d.expect(identity)); (whole == nil) != (each == nil) {
			t.Fatalf("whole %v, item by item %v\n--- old\n%s\n--- new\n%s", whole, each, src, body)
		}
	})
}
