package hooks

// Event is one shell-hook event of the agent's life (SPEC §3.1).
type Event struct {
	Name        string
	Description string
	Fields      []string
	// Tool: the matcher is honoured (pre_tool_call, post_tool_call).
	Tool bool
	// Blocking: exit 2 and fail_closed apply (pre_tool_call).
	Blocking bool
	// ShellSupported is false for events shell hooks cannot serve.
	ShellSupported bool
	// Payload is the synthetic payload in fields shape, as JSON object text
	// (key order kept).
	Payload string
	// Extra marks an event that came from hooks_extra_events.
	Extra bool
}

// shellEvents is the catalogue, in the order of SPEC §3.1.
var shellEvents = []Event{
	{Name: "pre_tool_call", Tool: true, Blocking: true, ShellSupported: true},
	{Name: "post_tool_call", Tool: true, ShellSupported: true},
	{Name: "pre_llm_call", ShellSupported: true},
	{Name: "post_llm_call", ShellSupported: true},
	{Name: "on_session_start", ShellSupported: true},
	{Name: "on_session_end", ShellSupported: true},
	{Name: "on_session_finalize", ShellSupported: true},
	{Name: "on_session_reset", ShellSupported: true},
	{Name: "transform_terminal_output", ShellSupported: true},
	{Name: "transform_tool_result", ShellSupported: true},
	{Name: "transform_llm_output", ShellSupported: true},
	{Name: "on_stream_start", ShellSupported: true},
	{Name: "on_stream_delta", ShellSupported: true},
	{Name: "on_stream_end", ShellSupported: true},
	{Name: "on_interim_message", ShellSupported: true},
	{Name: "pre_verify", ShellSupported: true},
	{Name: "pre_api_request", ShellSupported: true},
	{Name: "post_api_request", ShellSupported: true},
	{Name: "api_request_error", ShellSupported: true},
	{Name: "pre_auxiliary_call", ShellSupported: true},
	{Name: "post_auxiliary_call", ShellSupported: true},
	{Name: "transform_api_error_classification", ShellSupported: false},
	{Name: "on_skill_lifecycle", ShellSupported: true},
	{Name: "subagent_start", ShellSupported: true},
	{Name: "subagent_stop", ShellSupported: true},
	{Name: "pre_gateway_dispatch", ShellSupported: true},
	{Name: "agent_loop_stopped", ShellSupported: true},
	{Name: "pre_approval_request", ShellSupported: true},
	{Name: "post_approval_response", ShellSupported: true},
	{Name: "on_room_member_activity", ShellSupported: true},
	{Name: "pre_transcription", ShellSupported: true},
	{Name: "kanban_task_claimed", ShellSupported: true},
	{Name: "kanban_task_completed", ShellSupported: true},
	{Name: "kanban_task_blocked", ShellSupported: true},
	{Name: "on_kanban_worker_spawned", ShellSupported: true},
	{Name: "on_kanban_worker_exited", ShellSupported: true},
	{Name: "on_kanban_worker_stale_claim", ShellSupported: true},
	{Name: "on_kanban_task_updated", ShellSupported: true},
	{Name: "on_kanban_dispatch_tick", ShellSupported: true},
	{Name: "gateway_platform_event", ShellSupported: true},
	{Name: "pre_command", ShellSupported: true},
	{Name: "pre_tts_synthesis", ShellSupported: true},
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
func NewCatalogue(extra []string) *Catalogue {
	c := &Catalogue{byName: map[string]int{}}
	for _, e := range shellEvents {
		c.add(e)
	}
	for _, name := range extra {
		if name == "" || c.Has(name) || containsColon(name) {
			continue
		}
		c.add(Event{Name: name, Description: "extra event from hooks_extra_events", ShellSupported: true,
			Payload: `{"session_id": "test-session"}`, Extra: true})
	}
	return c
}

func (c *Catalogue) add(e Event) {
	c.byName[e.Name] = len(c.events)
	c.events = append(c.events, e)
}

// Events lists every event in catalogue order.
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
func (c *Catalogue) Has(name string) bool { _, ok := c.byName[name]; return ok }

// Names lists the event names in catalogue order.
func (c *Catalogue) Names() []string {
	names := make([]string, len(c.events))
	for i, e := range c.events {
		names[i] = e.Name
	}
	return names
}

func containsColon(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' {
			return true
		}
	}
	return false
}
