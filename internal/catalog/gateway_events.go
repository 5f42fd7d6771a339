package catalog

import (
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// GatewayEvent is one event the messaging gateway emits to gateway hooks
// (SPEC §3.2). Its handlers receive (event_type, context).
type GatewayEvent struct {
	Name        string
	Description string
	// Fields are the keys of the context dict, in the gateway's order.
	Fields []string
	// Payload is a synthetic context, as JSON object text whose keys are
	// Fields in order. Decode it (PayloadObject) before writing it anywhere.
	Payload string
}

// commandWildcard stands for every command:<name> event, which the gateway
// emits for each slash command (so the set is open).
const commandWildcard = "command:*"

// PayloadObject decodes the synthetic context into a fresh object the
// caller may modify.
func (g GatewayEvent) PayloadObject() (*pyjson.Object, error) {
	return decodePayload(g.Name, g.Payload)
}

var (
	sessionEndFields  = []string{"platform", "user_id", "session_key"}
	agentStartFields  = []string{"platform", "user_id", "chat_id", "thread_id", "chat_type", "session_id", "message"}
	reactionFields    = []string{"platform", "reaction", "user_id", "channel_id", "message_ts"}
	agentStartContext = `"platform": "telegram", "user_id": "123456789", "chat_id": "123456789",
		"thread_id": null, "chat_type": "dm", "session_id": "test-session", "message": "What is the weather?"`
	reactionContext = `"platform": "slack", "reaction": "thumbsup", "user_id": "U0123ABCDEF",
		"channel_id": "C0123ABCDEF", "message_ts": "1736937000.000100"`
)

// gatewayEvents is the table, in the order of SPEC §3.2.
var gatewayEvents = sync.OnceValue(func() []GatewayEvent {
	return []GatewayEvent{
		{
			Name:        "gateway:startup",
			Description: "When the gateway process starts, with the platforms it connected",
			Fields:      []string{"platforms"},
			Payload:     `{"platforms": ["telegram", "discord"]}`,
		},
		{
			Name:        "session:start",
			Description: "When a new chat session is created for a user",
			Fields:      []string{"platform", "user_id", "session_id", "session_key"},
			Payload: `{"platform": "telegram", "user_id": "123456789", "session_id": "test-session",
				"session_key": "agent:main:telegram:dm:123456789"}`,
		},
		{
			Name:        "session:end",
			Description: "When a chat session ends (expiry or shutdown)",
			Fields:      sessionEndFields,
			Payload:     `{"platform": "telegram", "user_id": "123456789", "session_key": "agent:main:telegram:dm:123456789"}`,
		},
		{
			Name:        "session:reset",
			Description: "When the user resets the session (/new, /reset)",
			Fields:      sessionEndFields,
			Payload:     `{"platform": "telegram", "user_id": "123456789", "session_key": "agent:main:telegram:dm:123456789"}`,
		},
		{
			Name:        "session:compress",
			Description: "When a session's context is compressed into a summary",
			Fields:      []string{"platform", "session_id", "old_session_id", "in_place", "compression_count"},
			Payload: `{"platform": "telegram", "session_id": "test-session", "old_session_id": "test-session-previous",
				"in_place": false, "compression_count": 1}`,
		},
		{
			Name:        "agent:start",
			Description: "When the agent starts working on an incoming message",
			Fields:      agentStartFields,
			Payload:     `{` + agentStartContext + `}`,
		},
		{
			Name:        "agent:step",
			Description: "After each step of the agent loop, with the tools it called",
			Fields:      []string{"platform", "user_id", "session_id", "iteration", "tool_names"},
			Payload: `{"platform": "telegram", "user_id": "123456789", "session_id": "test-session",
				"iteration": 1, "tool_names": ["web_search"]}`,
		},
		{
			Name:        "agent:end",
			Description: "When the agent finished a message, with its response",
			Fields:      append(agentStartFields[:len(agentStartFields):len(agentStartFields)], "response"),
			Payload:     `{` + agentStartContext + `, "response": "It is sunny and 22°C in Paris."}`,
		},
		{
			Name:        "reaction:added",
			Description: "When a user adds an emoji reaction to a message",
			Fields:      reactionFields,
			Payload:     `{` + reactionContext + `}`,
		},
		{
			Name:        "reaction:removed",
			Description: "When a user removes an emoji reaction from a message",
			Fields:      reactionFields,
			Payload:     `{` + reactionContext + `}`,
		},
		{
			Name:        commandWildcard,
			Description: "When a user runs a slash command; command:<name> for each command (command:model...)",
			Fields:      []string{"platform", "user_id", "command", "raw_command", "args", "raw_args"},
			Payload:     `{"platform": "telegram", "user_id": "123456789", "command": "help", "raw_command": "/help", "args": "", "raw_args": ""}`,
		},
	}
})

// slashCommands are the agent's built-in slash commands (its command
// registry, and the ones its gateway handles itself): each fires
// command:<name>. The set is open — a skill adds its own — so this list
// only serves completion, where command:* names no event a test can fire.
var slashCommands = []string{
	"compress", "help", "insights", "model", "new", "personality", "provider",
	"reload-mcp", "reset", "retry", "sethome", "status", "stop", "undo", "usage",
}

// SlashCommandEvents are command:<name> for the agent's built-in slash
// commands, sorted.
func SlashCommandEvents() []string {
	out := make([]string, len(slashCommands))
	for i, c := range slashCommands {
		out[i] = "command:" + c
	}
	return out
}

// GatewayEvents lists the gateway events in spec order; command:* stands for
// every command:<name>. The slice must not be modified.
func GatewayEvents() []GatewayEvent { return gatewayEvents() }

// GatewayEventNames lists the gateway event names in spec order.
func GatewayEventNames() []string {
	names := make([]string, len(gatewayEvents()))
	for i, g := range gatewayEvents() {
		names[i] = g.Name
	}
	return names
}

// IsGatewayEvent reports whether name is gateway-style: the agent tells the
// two kinds apart by the ':' alone, known or not.
func IsGatewayEvent(name string) bool { return strings.Contains(name, ":") }

// LookupGatewayEvent returns the gateway event named name. Any
// command:<name> resolves to the command:* entry (Name stays "command:*")
// with the payload's command field set to <name> (raw_command to /<name>),
// as the gateway would send.
func LookupGatewayEvent(name string) (GatewayEvent, bool) {
	for _, g := range gatewayEvents() {
		if g.Name == name {
			return g, true
		}
	}
	cmd, ok := strings.CutPrefix(name, "command:")
	if !ok || cmd == "" {
		return GatewayEvent{}, false
	}
	g, _ := LookupGatewayEvent(commandWildcard)
	obj, err := g.PayloadObject()
	if err != nil {
		// The table is tested to parse; a broken entry keeps its payload.
		return g, true
	}
	obj.Set("command", cmd)
	obj.Set("raw_command", "/"+cmd)
	g.Payload = obj.String()
	return g, true
}
