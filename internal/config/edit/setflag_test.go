package edit

import "testing"

func TestSetTrue(t *testing.T) {
	src := `hooks:
  pre_tool_call:
    - command: a.sh   # keep me
      matcher: terminal
    - matcher: x
      command: "b.sh"
      fail_closed: false
    - command: c.sh
      fail_closed: true
  post_tool_call:
    - command: a.sh
`
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := d.SetTrue([]string{"hooks"}, "fail_closed", func(key string, _ int, cmd string) bool {
		return key == "pre_tool_call"
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `hooks:
  pre_tool_call:
    - command: a.sh   # keep me
      fail_closed: true
      matcher: terminal
    - matcher: x
      command: "b.sh"
      fail_closed: true
    - command: c.sh
      fail_closed: true
  post_tool_call:
    - command: a.sh
`
	if n != 2 || string(out) != want {
		t.Errorf("changed %d:\n%s", n, out)
	}
	flow := `hooks: {pre_tool_call: [{command: a.sh}]}` + "\n"
	d, _ = Parse([]byte(flow))
	if _, _, err := d.SetTrue([]string{"hooks"}, "fail_closed", func(string, int, string) bool { return true }); err == nil {
		t.Error("a flow-style item was edited")
	}
}
