package catalog

import (
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// specShellEvents is SPEC §3.1's list, in its order.
var specShellEvents = strings.Fields(`
pre_tool_call post_tool_call pre_llm_call post_llm_call
on_session_start on_session_end on_session_finalize on_session_reset
transform_terminal_output transform_tool_result transform_llm_output
on_stream_start on_stream_delta on_stream_end on_interim_message
pre_verify pre_api_request post_api_request api_request_error
pre_auxiliary_call post_auxiliary_call transform_api_error_classification
on_skill_lifecycle subagent_start subagent_stop pre_gateway_dispatch agent_loop_stopped
pre_approval_request post_approval_response on_room_member_activity pre_transcription
kanban_task_claimed kanban_task_completed kanban_task_blocked
on_kanban_worker_spawned on_kanban_worker_exited on_kanban_worker_stale_claim
on_kanban_task_updated on_kanban_dispatch_tick gateway_platform_event pre_command
pre_tts_synthesis`)

// specFields is SPEC §3.1's field table with every "as X", "X + ..." and
// "a / b (+ x / y)" group written out, so the shared lists in the catalogue
// are checked against an independent spelling.
var specFields = map[string]string{
	"pre_tool_call":             "tool_name args task_id session_id tool_call_id turn_id api_request_id",
	"post_tool_call":            "tool_name args result task_id session_id tool_call_id turn_id api_request_id duration_ms status",
	"transform_tool_result":     "tool_name args result task_id session_id tool_call_id turn_id api_request_id duration_ms status",
	"transform_terminal_output": "command output returncode task_id env_type",
	"pre_llm_call":              "session_id task_id turn_id user_message conversation_history is_first_turn model platform",
	"post_llm_call":             "session_id task_id turn_id user_message assistant_response conversation_history model platform",
	"transform_llm_output":      "response_text session_id model platform",
	"pre_verify":                "session_id platform model coding attempt final_response changed_paths",
	"pre_api_request":           "task_id turn_id session_id platform model provider base_url api_mode api_call_count message_count tool_count approx_input_tokens request_char_count max_tokens",
	// §3.1's table plus first_chunk_at and moa_references, which §14 says the agent passes.
	"post_api_request":                   "task_id turn_id session_id platform model provider base_url api_mode api_call_count message_count tool_count approx_input_tokens request_char_count max_tokens api_duration started_at ended_at first_chunk_at finish_reason response_model usage assistant_content_chars assistant_tool_call_count moa_references",
	"api_request_error":                  "task_id session_id platform model provider status_code retry_count max_retries retryable reason error",
	"pre_auxiliary_call":                 "aux_task task_id session_id model provider message_count",
	"post_auxiliary_call":                "aux_task task_id session_id model provider message_count api_duration finish_reason usage",
	"on_stream_start":                    "turn_id iteration session_id model provider surface",
	"on_stream_delta":                    "turn_id iteration session_id model provider surface delta kind",
	"on_stream_end":                      "turn_id iteration session_id model provider surface final_text finished error",
	"on_interim_message":                 "turn_id iteration session_id model provider surface text already_streamed",
	"transform_api_error_classification": "provider model status_code error_type error_message",
	"on_session_start":                   "session_id model platform",
	"on_session_end":                     "session_id task_id turn_id completed failed interrupted turn_exit_reason model platform",
	"on_session_finalize":                "session_id platform reason",
	"on_session_reset":                   "session_id platform reason",
	"agent_loop_stopped":                 "session_key platform reason",
	"on_skill_lifecycle":                 "action skill_name provenance task_id session_id",
	"subagent_start":                     "parent_session_id child_session_id child_role child_goal",
	"subagent_stop":                      "parent_session_id child_role child_summary child_status tool_call_history duration_ms",
	"pre_gateway_dispatch":               "event platform chat_id text",
	"gateway_platform_event":             "platform event_type payload",
	"pre_command":                        "surface command alias_used args_raw session_key platform",
	"pre_approval_request":               "command description pattern_key pattern_keys session_key surface",
	"post_approval_response":             "command description pattern_key pattern_keys session_key surface choice",
	"on_room_member_activity":            "room_id member_id kind payload",
	"pre_transcription":                  "file_path provider model language prompt",
	"kanban_task_claimed":                "task_id profile_name board assignee run_id",
	"kanban_task_completed":              "task_id profile_name board assignee run_id summary",
	"kanban_task_blocked":                "task_id profile_name board assignee run_id reason",
	"on_kanban_worker_spawned":           "task_id profile_name board worker_pid workspace_path",
	"on_kanban_worker_exited":            "task_id profile_name board worker_pid exit_kind exit_code outcome",
	"on_kanban_worker_stale_claim":       "task_id profile_name board worker_pid heartbeat_stale",
	"on_kanban_task_updated":             "task_id board changed_fields",
	"on_kanban_dispatch_tick":            "board profile_name dry_run outcome",
	"pre_tts_synthesis":                  "text provider",
}

func TestShellEventNamesFollowSpec(t *testing.T) {
	c := NewCatalogue(nil)
	if len(specShellEvents) != 42 {
		t.Fatalf("spec list has %d names, want 42", len(specShellEvents))
	}
	if got := c.Names(); !slices.Equal(got, specShellEvents) {
		t.Errorf("Names() =\n%v\nwant\n%v", got, specShellEvents)
	}
	for _, name := range specShellEvents {
		if !c.Has(name) {
			t.Errorf("Has(%q) = false", name)
		}
		if e, ok := c.Lookup(name); !ok || e.Name != name || e.Extra {
			t.Errorf("Lookup(%q) = %+v, %v", name, e, ok)
		}
	}
	if _, ok := c.Lookup("pre_tol_call"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
}

func TestShellEventFlags(t *testing.T) {
	var tool, blocking, unsupported []string
	for _, e := range NewCatalogue(nil).Events() {
		if e.Tool {
			tool = append(tool, e.Name)
		}
		if e.Blocking {
			blocking = append(blocking, e.Name)
		}
		if !e.ShellSupported {
			unsupported = append(unsupported, e.Name)
		}
	}
	for _, tc := range []struct {
		what      string
		got, want []string
	}{
		{"tool events", tool, []string{"pre_tool_call", "post_tool_call"}},
		{"blocking events", blocking, []string{"pre_tool_call"}},
		{"events shell hooks cannot serve", unsupported, []string{"transform_api_error_classification"}},
	} {
		if !slices.Equal(tc.got, tc.want) {
			t.Errorf("%s = %v, want %v", tc.what, tc.got, tc.want)
		}
	}
}

func TestShellEventFieldsFollowSpec(t *testing.T) {
	events := NewCatalogue(nil).Events()
	if len(specFields) != len(events) {
		t.Errorf("spec table has %d events, catalogue %d", len(specFields), len(events))
	}
	for _, e := range events {
		want, ok := specFields[e.Name]
		if !ok {
			t.Errorf("%s: not in the spec's field table", e.Name)
			continue
		}
		if got := strings.Join(e.Fields, " "); got != want {
			t.Errorf("%s fields:\n got %s\nwant %s", e.Name, got, want)
		}
	}
}

func TestShellEventDescriptionsAndPayloads(t *testing.T) {
	for _, e := range NewCatalogue(nil).Events() {
		t.Run(e.Name, func(t *testing.T) {
			if strings.TrimSpace(e.Description) == "" || strings.Contains(e.Description, "\n") {
				t.Errorf("description %q is not one non-empty line", e.Description)
			}
			obj, err := e.PayloadObject()
			if err != nil {
				t.Fatal(err)
			}
			if got := obj.Keys(); !slices.Equal(got, e.Fields) {
				t.Errorf("payload keys %v, want the fields %v", got, e.Fields)
			}
			if v, ok := obj.Get("session_id"); ok && v != "test-session" {
				t.Errorf("session_id = %v, want test-session", v)
			}
		})
	}
}

// The agent's own test defaults, which scripts in the wild check for.
func TestShellEventAgentDefaults(t *testing.T) {
	for _, tc := range []struct {
		event string
		want  map[string]string // field → Python json.dumps of its value
	}{
		{"pre_tool_call", map[string]string{
			"tool_name": `"terminal"`, "args": `{"command": "echo hello"}`, "session_id": `"test-session"`,
			"task_id": `"test-task"`, "tool_call_id": `"test-call"`,
		}},
		{"post_tool_call", map[string]string{
			"tool_name": `"terminal"`, "args": `{"command": "echo hello"}`, "session_id": `"test-session"`,
			"task_id": `"test-task"`, "tool_call_id": `"test-call"`,
			"result": `"{\"output\": \"hello\"}"`, "duration_ms": `42`, "status": `"ok"`,
		}},
		// The agent's value types (SPEC §14): epoch seconds as floats.
		{"post_api_request", map[string]string{
			"started_at": `1736937000.125`, "ended_at": `1736937001.965`, "first_chunk_at": `1736937000.612`,
			"api_duration": `1.84`, "moa_references": `null`,
		}},
		{"pre_llm_call", map[string]string{
			"user_message": `"What is the weather?"`, "conversation_history": `[]`, "is_first_turn": `true`,
			"model": `"gpt-4"`, "platform": `"cli"`, "session_id": `"test-session"`,
		}},
	} {
		e, _ := NewCatalogue(nil).Lookup(tc.event)
		obj, err := e.PayloadObject()
		if err != nil {
			t.Fatal(err)
		}
		for field, want := range tc.want {
			v, ok := obj.Get(field)
			if got := string(pyjson.Marshal(v, pyjson.Options{})); !ok || got != want {
				t.Errorf("%s.%s = %s (present %v), want %s", tc.event, field, got, ok, want)
			}
		}
	}
}

func TestPayloadObjectIsFresh(t *testing.T) {
	e, _ := NewCatalogue(nil).Lookup("pre_tool_call")
	first, _ := e.PayloadObject()
	first.Set("tool_name", "patch")
	second, _ := e.PayloadObject()
	if v, _ := second.Get("tool_name"); v != "terminal" {
		t.Errorf("a change to one decoded payload leaked into the next: tool_name = %v", v)
	}
}

func TestNewCatalogueExtraEvents(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra []string
		want  []string // names appended after the built-in ones
	}{
		{"none", nil, nil},
		{"new names in order", []string{"on_memory_write", "pre_plan"}, []string{"on_memory_write", "pre_plan"}},
		{"built-in name ignored", []string{"pre_tool_call", "on_memory_write"}, []string{"on_memory_write"}},
		{"duplicate ignored", []string{"on_memory_write", "on_memory_write"}, []string{"on_memory_write"}},
		{"blank ignored", []string{"", "  ", "on_memory_write"}, []string{"on_memory_write"}},
		{"gateway-style ignored", []string{"agent:start", "custom:thing", "on_memory_write"}, []string{"on_memory_write"}},
		{"trimmed", []string{" on_memory_write "}, []string{"on_memory_write"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCatalogue(tc.extra)
			names := c.Names()
			if !slices.Equal(names[:len(specShellEvents)], specShellEvents) {
				t.Fatalf("built-in events changed: %v", names)
			}
			if got := names[len(specShellEvents):]; !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
				t.Errorf("extra events = %v, want %v", got, tc.want)
			}
			for _, name := range tc.want {
				e, ok := c.Lookup(name)
				if !ok {
					t.Fatalf("Lookup(%q) failed", name)
				}
				if !e.Extra || !e.ShellSupported || e.Tool || e.Blocking || e.Description == "" {
					t.Errorf("extra event %+v: want observer semantics, Extra set, a description", e)
				}
				if e.Payload != `{"session_id": "test-session"}` || !slices.Equal(e.Fields, []string{"session_id"}) {
					t.Errorf("extra event payload %s fields %v", e.Payload, e.Fields)
				}
			}
			if e, _ := c.Lookup("pre_tool_call"); e.Extra || !e.Blocking {
				t.Errorf("a built-in event was replaced: %+v", e)
			}
		})
	}
}
