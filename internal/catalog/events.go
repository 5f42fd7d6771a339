package catalog

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Event is one shell-hook event of the agent's life (SPEC §3.1).
type Event struct {
	Name string
	// Description says in one line when the event fires and what a hook can
	// do there.
	Description string
	// Fields are the keyword arguments the agent passes, in its order.
	Fields []string
	// Tool: the matcher is honoured (pre_tool_call, post_tool_call).
	Tool bool
	// Blocking: exit 2 and fail_closed apply (pre_tool_call).
	Blocking bool
	// ShellSupported is false for events shell hooks cannot serve.
	ShellSupported bool
	// Payload is the synthetic payload in fields shape, as JSON object text
	// whose keys are Fields in order. It is source text, not output: decode
	// it (PayloadObject) before writing it anywhere.
	Payload string
	// Extra marks an event that came from hooks_extra_events.
	Extra bool
}

// extraPayload is what the agent sends for an event it knows nothing about.
const extraPayload = `{"session_id": "test-session"}`

// PayloadObject decodes the synthetic payload into a fresh object the caller
// may modify (merging a user payload into it, for instance).
func (e Event) PayloadObject() (*pyjson.Object, error) {
	return decodePayload(e.Name, e.Payload)
}

func decodePayload(name, text string) (*pyjson.Object, error) {
	obj, err := pyjson.DecodeObject([]byte(text))
	if err != nil {
		return nil, fmt.Errorf("synthetic payload of event %q is not a JSON object: %w", name, err)
	}
	return obj, nil
}

// Catalogue is the set of shell events one invocation knows: the built-in
// ones plus the config's hooks_extra_events.
type Catalogue struct {
	events []Event
	byName map[string]int
}

// NewCatalogue returns the built-in events plus extra names (observer
// semantics, payload {"session_id": "test-session"}). Extra names that are
// already known, blank, or gateway-style (containing ':') are ignored.
// Names are trimmed, since they come from hand-written YAML.
func NewCatalogue(extra []string) *Catalogue {
	c := &Catalogue{byName: make(map[string]int, len(shellEvents())+len(extra))}
	for _, e := range shellEvents() {
		c.add(e)
	}
	for _, name := range extra {
		name = strings.TrimSpace(name)
		if name == "" || c.Has(name) || IsGatewayEvent(name) {
			continue
		}
		c.add(Event{
			Name:           name,
			Description:    "Extra event from hooks_extra_events (unknown to this build); hooks observe it only",
			Fields:         []string{"session_id"},
			ShellSupported: true,
			Payload:        extraPayload,
			Extra:          true,
		})
	}
	return c
}

func (c *Catalogue) add(e Event) {
	c.byName[e.Name] = len(c.events)
	c.events = append(c.events, e)
}

// Events lists every event in catalogue order. The slice must not be
// modified.
func (c *Catalogue) Events() []Event { return c.events }

// Lookup returns the event named name.
func (c *Catalogue) Lookup(name string) (Event, bool) {
	i, ok := c.byName[name]
	if !ok {
		return Event{}, false
	}
	return c.events[i], true
}

// Has reports whether name is a known shell event.
func (c *Catalogue) Has(name string) bool {
	_, ok := c.byName[name]
	return ok
}

// Names lists the event names in catalogue order.
func (c *Catalogue) Names() []string {
	names := make([]string, len(c.events))
	for i, e := range c.events {
		names[i] = e.Name
	}
	return names
}
