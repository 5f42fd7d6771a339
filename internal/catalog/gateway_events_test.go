package catalog

import (
	"slices"
	"strings"
	"testing"
)

// specGatewayFields is SPEC §3.2, with "agent:start fields + response" and
// the "/" groups written out.
var specGatewayFields = []struct{ name, fields string }{
	{"gateway:startup", "platforms"},
	{"session:start", "platform user_id session_id session_key"},
	{"session:end", "platform user_id session_key"},
	{"session:reset", "platform user_id session_key"},
	{"session:compress", "platform session_id old_session_id in_place compression_count"},
	{"agent:start", "platform user_id chat_id thread_id chat_type session_id message"},
	{"agent:step", "platform user_id session_id iteration tool_names"},
	{"agent:end", "platform user_id chat_id thread_id chat_type session_id message response"},
	{"reaction:added", "platform reaction user_id channel_id message_ts"},
	{"reaction:removed", "platform reaction user_id channel_id message_ts"},
	{"command:*", "platform user_id command raw_command args raw_args"},
}

func TestGatewayEventsFollowSpec(t *testing.T) {
	events := GatewayEvents()
	var want []string
	for _, s := range specGatewayFields {
		want = append(want, s.name)
	}
	if got := GatewayEventNames(); !slices.Equal(got, want) {
		t.Fatalf("GatewayEventNames() = %v, want %v", got, want)
	}
	for i, g := range events {
		t.Run(g.Name, func(t *testing.T) {
			if got := strings.Join(g.Fields, " "); got != specGatewayFields[i].fields {
				t.Errorf("fields %s, want %s", got, specGatewayFields[i].fields)
			}
			if strings.TrimSpace(g.Description) == "" || strings.Contains(g.Description, "\n") {
				t.Errorf("description %q is not one non-empty line", g.Description)
			}
			obj, err := g.PayloadObject()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(obj.Keys(), g.Fields) {
				t.Errorf("payload keys %v, want the fields %v", obj.Keys(), g.Fields)
			}
			if v, ok := obj.Get("session_id"); ok && v != "test-session" {
				t.Errorf("session_id = %v, want test-session", v)
			}
			if !IsGatewayEvent(g.Name) {
				t.Errorf("IsGatewayEvent(%q) = false", g.Name)
			}
		})
	}
}

func TestIsGatewayEvent(t *testing.T) {
	for name, want := range map[string]bool{
		"agent:start": true, "command:model": true, "custom:": true, ":x": true,
		"pre_tool_call": false, "agent": false, "": false,
	} {
		if got := IsGatewayEvent(name); got != want {
			t.Errorf("IsGatewayEvent(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestLookupGatewayEvent(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ok      bool
		entry   string // Name of the entry found
		payload string // Python json.dumps of the payload, "" to skip
	}{
		{"agent:start", true, "agent:start", ""},
		{"session:end", true, "session:end",
			`{"platform": "telegram", "user_id": "123456789", "session_key": "agent:main:telegram:dm:123456789"}`},
		{"command:model", true, "command:*",
			`{"platform": "telegram", "user_id": "123456789", "command": "model", "raw_command": "/model", "args": "", "raw_args": ""}`},
		{"command:reset", true, "command:*",
			`{"platform": "telegram", "user_id": "123456789", "command": "reset", "raw_command": "/reset", "args": "", "raw_args": ""}`},
		{"command:*", true, "command:*",
			`{"platform": "telegram", "user_id": "123456789", "command": "help", "raw_command": "/help", "args": "", "raw_args": ""}`},
		{"command:", false, "", ""},
		{"command", false, "", ""},
		{"agent:*", false, "", ""},
		{"agent", false, "", ""},
		{"pre_tool_call", false, "", ""},
		{"xcommand:model", false, "", ""},
	} {
		g, ok := LookupGatewayEvent(tc.name)
		if ok != tc.ok || g.Name != tc.entry {
			t.Errorf("LookupGatewayEvent(%q) = %q, %v; want %q, %v", tc.name, g.Name, ok, tc.entry, tc.ok)
			continue
		}
		if tc.payload == "" {
			continue
		}
		obj, err := g.PayloadObject()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := obj.String(); got != tc.payload {
			t.Errorf("LookupGatewayEvent(%q) payload\n got %s\nwant %s", tc.name, got, tc.payload)
		}
	}
	// Resolving a command must not alter the table.
	g, _ := LookupGatewayEvent("command:*")
	if !strings.Contains(g.Payload, `"command": "help"`) {
		t.Errorf("command:* entry changed after lookups: %s", g.Payload)
	}
}
