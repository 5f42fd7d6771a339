package edit

import (
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	src := `# my hooks
hooks:
  pre_tool_call:
    - command: ~/guard.sh   # the guard
      fail_closed: true
    - command: "python3 /x.py"
      matcher: terminal
  post_tool_call: [{command: '/log.sh'}]
`
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := d.Replace([]string{"hooks"}, "command", func(key string, _ int, old string) (string, bool) {
		return "/g --event " + key + " -- " + strings.Replace(old, "~", "${HOME}", 1), true
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `# my hooks
hooks:
  pre_tool_call:
    - command: /g --event pre_tool_call -- ${HOME}/guard.sh   # the guard
      fail_closed: true
    - command: "/g --event pre_tool_call -- python3 /x.py"
      matcher: terminal
  post_tool_call: [{command: '/g --event post_tool_call -- /log.sh'}]
`
	if n != 3 || string(out) != want {
		t.Errorf("Replace = %d\n%s\nwant 3\n%s", n, out, want)
	}
}

func TestReplaceRefusesBlockScalars(t *testing.T) {
	src := "hooks:\n  pre_tool_call:\n    - command: >\n        /a.sh\n"
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := d.Replace([]string{"hooks"}, "command", func(string, int, string) (string, bool) { return "/b.sh", true }); err == nil {
		t.Error("a folded scalar was replaced")
	}
}
