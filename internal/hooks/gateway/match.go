package gateway

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

// Match returns the hooks that fire for event, in the order the agent runs
// them: loaded and enabled hooks subscribed to event exactly (in discovery
// order), then those subscribed to "<prefix>:*" where prefix is the text of
// event before its first ':'. A hook subscribed both ways runs once. There
// is no bare "*", and "agent" does not match "agent:start".
func Match(hooks []Hook, event string) []Hook {
	var out []Hook
	taken := make([]bool, len(hooks))
	pick := func(want string) {
		for i, h := range hooks {
			if !taken[i] && h.Loaded && h.Enabled && subscribes(h, want) {
				taken[i] = true
				out = append(out, h)
			}
		}
	}
	pick(event)
	if prefix, _, ok := strings.Cut(event, ":"); ok {
		pick(prefix + ":*")
	}
	return out
}

func subscribes(h Hook, event string) bool {
	if event == "*" {
		return false
	}
	for _, e := range h.Events {
		if e == event {
			return true
		}
	}
	return false
}

// validator checks declared event names against the known gateway events.
type validator struct {
	names    []string
	known    map[string]bool
	prefixes map[string]bool // "agent" when agent:start is known
	families map[string]bool // "command" when command:* is known
}

func newValidator(known []string) *validator {
	v := &validator{names: known, known: map[string]bool{},
		prefixes: map[string]bool{}, families: map[string]bool{}}
	for _, name := range known {
		v.known[name] = true
		if prefix, rest, ok := strings.Cut(name, ":"); ok {
			v.prefixes[prefix] = true
			if rest == "*" {
				v.families[prefix] = true
			}
		}
	}
	return v
}

// check returns a warning for name, "" when it is a known event or a
// wildcard over known events.
func (v *validator) check(name string) string {
	if name == "*" {
		return `event "*" never matches: there is no bare "*" (subscribe to "<prefix>:*", such as "agent:*")`
	}
	if v.known[name] {
		return ""
	}
	if prefix, rest, ok := strings.Cut(name, ":"); ok && rest != "" {
		if (rest == "*" && v.prefixes[prefix]) || v.families[prefix] {
			return ""
		}
	}
	msg := fmt.Sprintf("unknown event %q", name)
	if best := suggest.Name(name, v.names); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return msg + "; registered anyway, as the agent does"
}
