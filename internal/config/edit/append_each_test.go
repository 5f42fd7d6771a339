package edit

import (
	"testing"
)

func TestAppendEach(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"existing and new lists", "# mine\nhooks:\n  pre_tool_call:\n    - command: a   # keep\nother: 1\n",
			"# mine\nhooks:\n  pre_tool_call:\n    - command: a   # keep\n    - command: b\n  post_tool_call:\n    - command: c\n    - command: d\n  pre_llm_call:\n    - command: e\nother: 1\n"},
		{"empty list value last", "hooks:\n  post_tool_call: []\n",
			"hooks:\n  post_tool_call:\n    - command: c\n    - command: d\n  pre_tool_call:\n    - command: b\n  pre_llm_call:\n    - command: e\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Parse([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			cmd := func(c string) []Field { return []Field{{Key: "command", Value: c}} }
			adds := []Append{
				{Path: []string{"hooks", "pre_tool_call"}, Items: [][]Field{cmd("b")}},
				{Path: []string{"hooks", "post_tool_call"}, Items: [][]Field{cmd("c"), cmd("d")}},
				{Path: []string{"hooks", "pre_llm_call"}, Items: [][]Field{cmd("e")}},
			}
			out, err := d.AppendEach(adds)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
		})
	}
}
