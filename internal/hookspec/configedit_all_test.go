package hookspec

import (
	"context"
	"errors"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
)

func TestAddAllToConfig(t *testing.T) {
	src := []byte("hooks:\n  pre_tool_call:\n    - command: ${HOME}/a.sh\n      matcher: terminal\n")
	env := config.MapEnv(map[string]string{"HOME": "/home/u"})
	hs := []NewHook{
		{Event: "pre_tool_call", Command: "/home/u/a.sh", Matcher: "terminal"}, // there, expanded
		{Event: "pre_tool_call", Command: "/home/u/a.sh"},                      // another matcher
		{Event: "post_tool_call", Command: "b.sh", Timeout: 5},
		{Event: "post_tool_call", Command: " b.sh "}, // the one before
		{Event: "pre_tool_call", Command: "c.sh", FailClosed: true},
	}
	out, errs, err := AddAllToConfig(context.Background(), src, hs, env)
	if err != nil {
		t.Fatal(err)
	}
	for i, dup := range []bool{true, false, false, true, false} {
		if got := errors.Is(errs[i], ErrAlreadyConfigured); got != dup {
			t.Errorf("hook %d: already configured %v, want %v (%v)", i, got, dup, errs[i])
		}
	}
	want := "hooks:\n  pre_tool_call:\n    - command: ${HOME}/a.sh\n      matcher: terminal\n    - command: /home/u/a.sh\n    - command: c.sh\n      fail_closed: true\n  post_tool_call:\n    - command: b.sh\n      timeout: 5\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := AddAllToConfig(ctx, nil, hs, env); !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %v", err)
	}
}
