package gateway

import (
	"reflect"
	"testing"
)

func TestMatch(t *testing.T) {
	hook := func(name string, events ...string) Hook {
		return Hook{Name: name, Events: events, Enabled: true, Loaded: true, Handler: HandlerPy}
	}
	disabled := hook("disabled", "agent:start")
	disabled.Enabled, disabled.Loaded = false, false
	broken := hook("broken", "agent:start")
	broken.Loaded = false
	hooks := []Hook{
		hook("all-agent", "agent:*"),
		hook("start", "agent:start"),
		hook("bare-agent", "agent"),
		hook("star", "*"),
		hook("commands", "command:*"),
		hook("model", "command:model"),
		hook("both", "agent:*", "agent:start"),
		disabled,
		broken,
		hook("end", "agent:end"),
	}
	tests := []struct {
		event string
		want  []string
	}{
		{"agent:start", []string{"start", "both", "all-agent"}},
		{"agent:end", []string{"end", "all-agent", "both"}},
		{"agent:step", []string{"all-agent", "both"}},
		{"command:model", []string{"model", "commands"}},
		{"command:reset", []string{"commands"}},
		{"agent", []string{"bare-agent"}},
		{"session:start", []string{}},
		{"*", []string{}},
		{"pre_tool_call", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			if got := names(Match(hooks, tt.event)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Match(%q) = %q, want %q", tt.event, got, tt.want)
			}
		})
	}
}

// An `agent` folder subscribing to the bare event `agent` is discovered with
// a warning and never receives agent:start.
func TestMatchDiscoveredAgentFolder(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "agent", folder{yaml: "events: [agent]\n", py: okPy})
	writeFolder(t, root, "wild", folder{yaml: "events: ['agent:*']\n", py: okPy})
	hooks := Discover(root, known)
	if len(hooks[0].Warnings) != 1 {
		t.Errorf("bare event agent: warnings = %q, want one", hooks[0].Warnings)
	}
	if got := names(Match(hooks, "agent:start")); !reflect.DeepEqual(got, []string{"wild"}) {
		t.Errorf("Match(agent:start) = %q, want [wild]", got)
	}
}
