package catalog

import (
	"testing"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

func TestSuggest(t *testing.T) {
	shell := NewCatalogue(nil).Names()
	gateway := GatewayEventNames()
	for _, tc := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"pre_tol_call", shell, "pre_tool_call"},
		{"post_tool_cal", shell, "post_tool_call"},
		{"on_sesion_end", shell, "on_session_end"},
		{"agent:strat", gateway, "agent:start"},
		{"sesion:end", gateway, "session:end"},
		{"zzz", shell, ""},
		{"zzz", gateway, ""},
		{"tool", shell, ""},          // a fragment is too short to be close
		{"PRE_TOOL_CALL", shell, ""}, // difflib compares case-sensitively
		{"anything", nil, ""},
		{"", shell, ""},
		// Equal scores: difflib's nlargest keeps the greatest string.
		{"abc", []string{"abd", "abe", "xyz"}, "abe"},
		{"abc", []string{"abe", "abd"}, "abe"},
	} {
		if got := suggest.Closest(tc.name, tc.candidates); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Names the user typed are matched ignoring case and surrounding space.
func TestSuggestName(t *testing.T) {
	shell := NewCatalogue([]string{"My_Event"}).Names()
	for _, tc := range []struct{ name, want string }{
		{"PRE_TOOL_CALL", "pre_tool_call"},
		{"Pre_Tol_Call", "pre_tool_call"},
		{"pre_tool_call ", "pre_tool_call"},
		{"my_event", "My_Event"},
		{"ZZZ", ""},
		{"pre_tol_call", "pre_tool_call"},
	} {
		if got := suggest.Name(tc.name, shell); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := suggest.Name("AGENT:STRAT", GatewayEventNames()); got != "agent:start" {
		t.Errorf("Name(AGENT:STRAT) = %q, want agent:start", got)
	}
}

func BenchmarkSuggest(b *testing.B) {
	names := NewCatalogue(nil).Names()
	for b.Loop() {
		suggest.Closest("on_kanban_wroker_stale_clam", names)
	}
}
