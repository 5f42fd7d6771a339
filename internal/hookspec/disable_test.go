package hookspec

import (
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
)

func TestDisableSelection(t *testing.T) {
	src := `hooks:
  pre_tool_call:
    - command: ${HOME}/x.sh
    - command: /usr/local/bin/hermes-guard --event pre_tool_call -- ${HOME}/g.sh
  post_tool_call:
    - command: ${HOME}/x.sh
`
	env := config.MapEnv(map[string]string{"HOME": "/home/me"})
	for _, tc := range []struct {
		name string
		sel  Selection
		want []ConfigRef
		miss []string
	}{
		{"both events", Selection{Commands: []string{"/home/me/x.sh"}},
			[]ConfigRef{{"pre_tool_call", "${HOME}/x.sh"}, {"post_tool_call", "${HOME}/x.sh"}}, nil},
		{"one event", Selection{Commands: []string{"${HOME}/x.sh"}, Event: "post_tool_call"},
			[]ConfigRef{{"post_tool_call", "${HOME}/x.sh"}}, nil},
		{"protected by its inner command", Selection{Commands: []string{"~/g.sh", "~/nope.sh"}},
			[]ConfigRef{{"pre_tool_call", "/usr/local/bin/hermes-guard --event pre_tool_call -- ${HOME}/g.sh"}}, []string{"~/nope.sh"}},
		{"all of one event", Selection{All: true, Event: "pre_tool_call"},
			[]ConfigRef{{"pre_tool_call", "${HOME}/x.sh"}, {"pre_tool_call", "/usr/local/bin/hermes-guard --event pre_tool_call -- ${HOME}/g.sh"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, moved, miss, err := DisableInConfig([]byte(src), tc.sel, env)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(moved, tc.want) || !slices.Equal(miss, tc.miss) {
				t.Errorf("moved %v, unmatched %v; want %v, %v", moved, miss, tc.want, tc.miss)
			}
			back, moved2, _, err := EnableInConfig(out, Selection{All: true}, env)
			if err != nil || string(back) != src || len(moved2) != len(tc.want) {
				t.Errorf("enable --all: %v, %d moved:\n%s", err, len(moved2), back)
			}
			if !strings.Contains(string(out), "hooks_disabled:") {
				t.Errorf("no hooks_disabled:\n%s", out)
			}
		})
	}
}
