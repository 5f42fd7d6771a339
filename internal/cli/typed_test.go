package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/hookspec"
)

func TestTypedCommand(t *testing.T) {
	specs := []hookspec.Spec{
		{Event: "pre_tool_call", Command: "~/a.sh"},
		{Event: "on_session_start", Command: "~/a.sh"},
		{Event: "pre_tool_call", Command: "~/b.sh"},
		{Event: "on_session_end", Command: "/h/b.sh", Written: "${HOME}/b.sh"},
		{Event: "pre_tool_call", Command: "/h/c.sh --x"},
	}
	for _, tt := range []struct {
		typed, event, flag string
		want, err          string
	}{
		{typed: "~/a.sh", want: "~/a.sh"},                                           // as configured
		{typed: "/h/a.sh", event: "pre_tool_call", flag: "--event", want: "~/a.sh"}, // one entry
		{typed: "/h/a.sh", want: "~/a.sh"},                                          // no --event to take: one command, every event
		{typed: "/h/a.sh", flag: "--event", err: `"/h/a.sh" names 2 configured hooks once ~ is expanded (pre_tool_call "~/a.sh", on_session_start "~/a.sh"): give the command exactly as written in the config, quoted, or choose one with --event`},
		// /h/b.sh names the ${HOME} entry exactly: nothing to resolve.
		{typed: "/h/b.sh", want: "/h/b.sh"},
		{typed: "~/b.sh", want: "~/b.sh"},
		{typed: "${HOME}/b.sh", want: "${HOME}/b.sh"},
		{typed: "~/c.sh --x", want: "/h/c.sh --x"},
		{typed: "/h/nothing.sh", want: "/h/nothing.sh"},
	} {
		got, err := typedCommand(specs, tt.typed, tt.event, "/h", tt.flag)
		var ue *UsageError
		switch {
		case tt.err != "":
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("typedCommand(%q, %q) error = %v, want usage error %q", tt.typed, tt.event, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("typedCommand(%q, %q) = %q, %v; want %q", tt.typed, tt.event, got, err, tt.want)
		}
	}
}
