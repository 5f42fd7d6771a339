package edit

import (
	"strings"
	"testing"
)

// SetTrue and Replace walk the same items and refuse the same shared
// places; each case is a file where editing one item would edit another
// place too, so both must refuse and say why.
func TestItemEditsRefuseShared(t *testing.T) {
	cases := []struct {
		name, src, setTrue, replace string
	}{
		{"list is an alias", "base: &b\n  - command: a.sh\nhooks:\n  pre_tool_call: *b\n",
			"is (inside) an alias or an anchor", "is (inside) an alias of a value defined elsewhere"},
		{"item is an alias", "base: &b\n  command: a.sh\nhooks:\n  pre_tool_call:\n    - *b\n",
			"is (inside) an alias or an anchor", "is (inside) an alias of a value defined elsewhere"},
		{"list is anchored", "hooks:\n  pre_tool_call: &l\n    - command: a.sh\nother: *l\n",
			"is (inside) an alias or an anchor", "is reused elsewhere in the file through an anchor (&l)"},
		{"item is anchored", "hooks:\n  pre_tool_call:\n    - &one\n      command: a.sh\n  post_tool_call:\n    - *one\n",
			"is (inside) an alias or an anchor", "is reused elsewhere in the file through an anchor"},
		{"hooks is an alias", "base: &h\n  pre_tool_call:\n    - command: a.sh\nhooks: *h\n",
			"is (inside) an alias or an anchor", "is (inside) an alias of a value defined elsewhere"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = d.SetTrue([]string{"hooks"}, "fail_closed", func(string, int, string) bool { return true })
			if err == nil || !strings.Contains(err.Error(), c.setTrue) {
				t.Errorf("SetTrue: error %v, want one saying %q", err, c.setTrue)
			}
			d, _ = Parse([]byte(c.src))
			_, _, err = d.Replace([]string{"hooks"}, "command", func(string, int, string) (string, bool) { return "b.sh", true })
			if err == nil || !strings.Contains(err.Error(), c.replace) {
				t.Errorf("Replace: error %v, want one saying %q", err, c.replace)
			}
		})
	}
}

// A flow-style item is refused by SetTrue (a new line cannot go inside
// braces) but rewritten in place by Replace, in flow quoting.
func TestItemEditsFlow(t *testing.T) {
	src := "hooks:\n  pre_tool_call: [{command: a.sh}]\n"
	d, _ := Parse([]byte(src))
	if _, _, err := d.SetTrue([]string{"hooks"}, "fail_closed", func(string, int, string) bool { return true }); err == nil || !strings.Contains(err.Error(), "flow style") {
		t.Errorf("SetTrue: error %v, want a flow-style refusal", err)
	}
	d, _ = Parse([]byte(src))
	out, n, err := d.Replace([]string{"hooks"}, "command", func(string, int, string) (string, bool) { return "b, c.sh", true })
	if err != nil || n != 1 {
		t.Fatalf("Replace: %d changed, error %v", n, err)
	}
	if want := "hooks:\n  pre_tool_call: [{command: 'b, c.sh'}]\n"; string(out) != want {
		t.Errorf("Replace wrote\n%s\nwant\n%s", out, want)
	}
}
