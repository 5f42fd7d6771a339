package catalog

import "sync"

// shellEvents is the catalogue, in the order of SPEC §3.1. Fields follow the
// spec's table; each Payload holds exactly those keys in that order, with
// values shaped like the agent's (the agent's own `hooks test` defaults are
// kept verbatim for pre_tool_call, post_tool_call and pre_llm_call, since
// scripts in the wild are written against them).
var shellEvents = sync.OnceValue(func() []Event {
	return []Event{
		{
			Name:           "pre_tool_call",
			Description:    "Before a tool runs; a hook can block it or rewrite its arguments",
			Fields:         []string{"tool_name", "args", "task_id", "session_id", "tool_call_id", "turn_id", "api_request_id"},
			Tool:           true,
			Blocking:       true,
			ShellSupported: true,
			Payload: `{"tool_name": "terminal", "args": {"command": "echo hello"}, "task_id": "test-task",
				"session_id": "test-session", "tool_call_id": "test-call", "turn_id": "test-turn",
				"api_request_id": "test-api-request"}`,
		},
		{
			Name:           "post_tool_call",
			Description:    "After a tool ran, with its result, duration and status; a hook observes (log, audit, notify)",
			Fields:         toolResultFields,
			Tool:           true,
			ShellSupported: true,
			Payload:        toolResultPayload,
		},
		{
			Name:           "pre_llm_call",
			Description:    "Before the model is asked for a turn; a hook can add context to the user message",
			Fields:         []string{"session_id", "task_id", "turn_id", "user_message", "conversation_history", "is_first_turn", "model", "platform"},
			ShellSupported: true,
			Payload: `{"session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn",
				"user_message": "What is the weather?", "conversation_history": [], "is_first_turn": true,
				"model": "gpt-4", "platform": "cli"}`,
		},
		{
			Name:           "post_llm_call",
			Description:    "After the model answered a turn; a hook observes the exchange",
			Fields:         []string{"session_id", "task_id", "turn_id", "user_message", "assistant_response", "conversation_history", "model", "platform"},
			ShellSupported: true,
			Payload: `{"session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn",
				"user_message": "What is the weather?",
				"assistant_response": "I can't check live weather, but I can look it up if you enable the web tool.",
				"conversation_history": [{"role": "user", "content": "What is the weather?"}],
				"model": "gpt-4", "platform": "cli"}`,
		},
		{
			Name:           "on_session_start",
			Description:    "When a new session begins; a hook observes (set up, log)",
			Fields:         []string{"session_id", "model", "platform"},
			ShellSupported: true,
			Payload:        `{"session_id": "test-session", "model": "gpt-4", "platform": "cli"}`,
		},
		{
			Name:           "on_session_end",
			Description:    "When a run of the agent loop ends, with how the turn ended; a hook observes",
			Fields:         []string{"session_id", "task_id", "turn_id", "completed", "failed", "interrupted", "turn_exit_reason", "model", "platform"},
			ShellSupported: true,
			Payload: `{"session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn",
				"completed": true, "failed": false, "interrupted": false, "turn_exit_reason": "final_response",
				"model": "gpt-4", "platform": "cli"}`,
		},
		{
			Name:           "on_session_finalize",
			Description:    "When a session is closed for good (exit, shutdown); a hook can flush or clean up",
			Fields:         sessionReasonFields,
			ShellSupported: true,
			Payload:        `{"session_id": "test-session", "platform": "cli", "reason": "shutdown"}`,
		},
		{
			Name:           "on_session_reset",
			Description:    "When a session is reset to a fresh one (/new, /reset); a hook observes",
			Fields:         sessionReasonFields,
			ShellSupported: true,
			Payload:        `{"session_id": "test-session", "platform": "cli", "reason": "new_session"}`,
		},
		{
			Name:           "transform_terminal_output",
			Description:    "After a terminal command ran, before the model sees its output; a hook can rewrite the output",
			Fields:         []string{"command", "output", "returncode", "task_id", "env_type"},
			ShellSupported: true,
			Payload: `{"command": "ls -la", "output": "total 8\ndrwxr-xr-x 2 user user 4096 Jan 15 10:30 .\n",
				"returncode": 0, "task_id": "test-task", "env_type": "local"}`,
		},
		{
			Name:           "transform_tool_result",
			Description:    "After a tool ran, before the model sees its result; a hook can rewrite the result",
			Fields:         toolResultFields,
			ShellSupported: true,
			Payload:        toolResultPayload,
		},
		{
			Name:           "transform_llm_output",
			Description:    "After the model's final text, before it is shown or sent; a hook can rewrite the text",
			Fields:         []string{"response_text", "session_id", "model", "platform"},
			ShellSupported: true,
			Payload: `{"response_text": "It is sunny and 22°C in Paris.", "session_id": "test-session",
				"model": "gpt-4", "platform": "cli"}`,
		},
		{
			Name:           "on_stream_start",
			Description:    "When the model starts streaming a reply; a hook observes",
			Fields:         streamFields,
			ShellSupported: true,
			Payload:        `{` + streamPayloadHead + `}`,
		},
		{
			Name:           "on_stream_delta",
			Description:    "For each chunk the model streams; a hook observes (live mirrors, metrics)",
			Fields:         append(streamFields[:len(streamFields):len(streamFields)], "delta", "kind"),
			ShellSupported: true,
			Payload:        `{` + streamPayloadHead + `, "delta": "It is sunny", "kind": "text"}`,
		},
		{
			Name:           "on_stream_end",
			Description:    "When the model's stream finishes or breaks, with the full text; a hook observes",
			Fields:         append(streamFields[:len(streamFields):len(streamFields)], "final_text", "finished", "error"),
			ShellSupported: true,
			Payload: `{` + streamPayloadHead + `, "final_text": "It is sunny and 22°C in Paris.",
				"finished": true, "error": null}`,
		},
		{
			Name:           "on_interim_message",
			Description:    "When the agent shows a progress message between tool calls; a hook observes",
			Fields:         append(streamFields[:len(streamFields):len(streamFields)], "text", "already_streamed"),
			ShellSupported: true,
			Payload: `{` + streamPayloadHead + `, "text": "Let me check the forecast first.",
				"already_streamed": false}`,
		},
		{
			Name:           "pre_verify",
			Description:    "Before the agent accepts its final answer; a hook can nudge it to keep working",
			Fields:         []string{"session_id", "platform", "model", "coding", "attempt", "final_response", "changed_paths"},
			ShellSupported: true,
			Payload: `{"session_id": "test-session", "platform": "cli", "model": "gpt-4", "coding": true,
				"attempt": 1, "final_response": "Fixed the off-by-one error in the pagination helper.",
				"changed_paths": ["src/pagination.py", "tests/test_pagination.py"]}`,
		},
		{
			Name:           "pre_api_request",
			Description:    "Before each request to the model provider's API; a hook observes (cost, quota, tracing)",
			Fields:         apiRequestFields,
			ShellSupported: true,
			Payload:        `{` + apiRequestPayloadHead + `}`,
		},
		{
			Name:        "post_api_request",
			Description: "After a model API request returned, with timing and token usage; a hook observes",
			Fields: append(apiRequestFields[:len(apiRequestFields):len(apiRequestFields)],
				"api_duration", "started_at", "ended_at", "first_chunk_at", "finish_reason", "response_model", "usage",
				"assistant_content_chars", "assistant_tool_call_count", "moa_references"),
			ShellSupported: true,
			// The agent's types (SPEC §14): started_at, ended_at and
			// first_chunk_at are float epoch seconds (time.time()), not
			// ISO strings; moa_references is null outside mixture-of-agents.
			Payload: `{` + apiRequestPayloadHead + `, "api_duration": 1.84,
				"started_at": 1736937000.125, "ended_at": 1736937001.965, "first_chunk_at": 1736937000.612,
				"finish_reason": "tool_calls", "response_model": "gpt-4-0613",
				"usage": {"input_tokens": 2310, "output_tokens": 87}, "assistant_content_chars": 64,
				"assistant_tool_call_count": 1, "moa_references": null}`,
		},
		{
			Name:           "api_request_error",
			Description:    "When a model API request failed, before any retry; a hook observes (alerting)",
			Fields:         []string{"task_id", "session_id", "platform", "model", "provider", "status_code", "retry_count", "max_retries", "retryable", "reason", "error"},
			ShellSupported: true,
			Payload: `{"task_id": "test-task", "session_id": "test-session", "platform": "cli", "model": "gpt-4",
				"provider": "openai", "status_code": 429, "retry_count": 1, "max_retries": 3, "retryable": true,
				"reason": "rate_limit", "error": "Error code: 429 - Rate limit reached for gpt-4"}`,
		},
		{
			Name:           "pre_auxiliary_call",
			Description:    "Before a side model call (titles, compression, vision); a hook observes",
			Fields:         auxFields,
			ShellSupported: true,
			Payload:        `{` + auxPayloadHead + `}`,
		},
		{
			Name:           "post_auxiliary_call",
			Description:    "After a side model call returned, with timing and usage; a hook observes",
			Fields:         append(auxFields[:len(auxFields):len(auxFields)], "api_duration", "finish_reason", "usage"),
			ShellSupported: true,
			Payload: `{` + auxPayloadHead + `, "api_duration": 0.62, "finish_reason": "stop",
				"usage": {"input_tokens": 412, "output_tokens": 9}}`,
		},
		{
			Name:           "transform_api_error_classification",
			Description:    "When the agent classifies an API error; only in-process plugins can reclassify it, shell hooks cannot serve it",
			Fields:         []string{"provider", "model", "status_code", "error_type", "error_message"},
			ShellSupported: false,
			Payload: `{"provider": "openai", "model": "gpt-4", "status_code": 400, "error_type": "invalid_request_error",
				"error_message": "This model's maximum context length is 8192 tokens."}`,
		},
		{
			Name:           "on_skill_lifecycle",
			Description:    "When a skill is created, updated or removed; a hook observes (sync, review)",
			Fields:         []string{"action", "skill_name", "provenance", "task_id", "session_id"},
			ShellSupported: true,
			Payload: `{"action": "created", "skill_name": "weather-lookup", "provenance": "agent",
				"task_id": "test-task", "session_id": "test-session"}`,
		},
		{
			Name:           "subagent_start",
			Description:    "When the agent delegates work to a child agent; a hook observes",
			Fields:         []string{"parent_session_id", "child_session_id", "child_role", "child_goal"},
			ShellSupported: true,
			Payload: `{"parent_session_id": "test-session", "child_session_id": "test-session-child-1",
				"child_role": "researcher", "child_goal": "Find the current weather forecast for Paris"}`,
		},
		{
			Name:           "subagent_stop",
			Description:    "When a child agent finished, with its summary and tool calls; a hook observes",
			Fields:         []string{"parent_session_id", "child_role", "child_summary", "child_status", "tool_call_history", "duration_ms"},
			ShellSupported: true,
			Payload: `{"parent_session_id": "test-session", "child_role": "researcher",
				"child_summary": "Paris: sunny, 22°C, light wind from the west.", "child_status": "completed",
				"tool_call_history": [{"tool_name": "web_search", "status": "ok", "duration_ms": 812},
					{"tool_name": "web_extract", "status": "ok", "duration_ms": 1290}],
				"duration_ms": 5480}`,
		},
		{
			Name:           "pre_gateway_dispatch",
			Description:    "When a messaging-platform message arrives, before the agent handles it; a hook observes",
			Fields:         []string{"event", "platform", "chat_id", "text"},
			ShellSupported: true,
			Payload: `{"event": {"message_type": "text", "message_id": "4211", "user_id": "123456789",
				"text": "What is the weather?"}, "platform": "telegram", "chat_id": "123456789",
				"text": "What is the weather?"}`,
		},
		{
			Name:           "agent_loop_stopped",
			Description:    "When a gateway session's agent loop is stopped (/stop, interrupt); a hook observes",
			Fields:         []string{"session_key", "platform", "reason"},
			ShellSupported: true,
			Payload:        `{"session_key": "agent:main:telegram:dm:123456789", "platform": "telegram", "reason": "user_stop"}`,
		},
		{
			Name:           "pre_approval_request",
			Description:    "Before the user is asked to approve a dangerous command; a hook observes (notify a phone)",
			Fields:         approvalFields,
			ShellSupported: true,
			Payload:        `{` + approvalPayloadHead + `}`,
		},
		{
			Name:           "post_approval_response",
			Description:    "After the user answered an approval prompt, with the choice; a hook observes (audit)",
			Fields:         append(approvalFields[:len(approvalFields):len(approvalFields)], "choice"),
			ShellSupported: true,
			Payload:        `{` + approvalPayloadHead + `, "choice": "once"}`,
		},
		{
			Name:           "on_room_member_activity",
			Description:    "When someone joins, leaves or changes in a chat room the agent is in; a hook observes",
			Fields:         []string{"room_id", "member_id", "kind", "payload"},
			ShellSupported: true,
			Payload: `{"room_id": "!abcdef123456:matrix.org", "member_id": "@alice:matrix.org", "kind": "join",
				"payload": {"displayname": "Alice", "membership": "join"}}`,
		},
		{
			Name:           "pre_transcription",
			Description:    "Before a voice message is transcribed; a hook observes",
			Fields:         []string{"file_path", "provider", "model", "language", "prompt"},
			ShellSupported: true,
			Payload: `{"file_path": "/tmp/hermes/voice/voice_20250115_103000.ogg", "provider": "openai",
				"model": "whisper-1", "language": "en", "prompt": ""}`,
		},
		{
			Name:           "kanban_task_claimed",
			Description:    "When a kanban worker claims a task; a hook observes",
			Fields:         kanbanTaskFields,
			ShellSupported: true,
			Payload:        `{` + kanbanTaskPayloadHead + `}`,
		},
		{
			Name:           "kanban_task_completed",
			Description:    "When a kanban task is completed, with its summary; a hook observes",
			Fields:         append(kanbanTaskFields[:len(kanbanTaskFields):len(kanbanTaskFields)], "summary"),
			ShellSupported: true,
			Payload:        `{` + kanbanTaskPayloadHead + `, "summary": "Added retry with backoff to the webhook sender; tests pass."}`,
		},
		{
			Name:           "kanban_task_blocked",
			Description:    "When a kanban task is blocked, with the reason; a hook observes",
			Fields:         append(kanbanTaskFields[:len(kanbanTaskFields):len(kanbanTaskFields)], "reason"),
			ShellSupported: true,
			Payload:        `{` + kanbanTaskPayloadHead + `, "reason": "Needs an API key for the staging environment."}`,
		},
		{
			Name:           "on_kanban_worker_spawned",
			Description:    "When a kanban worker process is started for a task; a hook observes",
			Fields:         []string{"task_id", "profile_name", "board", "worker_pid", "workspace_path"},
			ShellSupported: true,
			Payload: `{"task_id": "test-task", "profile_name": "default", "board": "main", "worker_pid": 48213,
				"workspace_path": "/home/user/.hermes/kanban/workspaces/test-task"}`,
		},
		{
			Name:           "on_kanban_worker_exited",
			Description:    "When a kanban worker process exited, with how and the outcome; a hook observes",
			Fields:         []string{"task_id", "profile_name", "board", "worker_pid", "exit_kind", "exit_code", "outcome"},
			ShellSupported: true,
			Payload: `{"task_id": "test-task", "profile_name": "default", "board": "main", "worker_pid": 48213,
				"exit_kind": "exited", "exit_code": 0, "outcome": "completed"}`,
		},
		{
			Name:           "on_kanban_worker_stale_claim",
			Description:    "When a kanban worker's heartbeat went stale and its claim is released; a hook observes",
			Fields:         []string{"task_id", "profile_name", "board", "worker_pid", "heartbeat_stale"},
			ShellSupported: true,
			Payload: `{"task_id": "test-task", "profile_name": "default", "board": "main", "worker_pid": 48213,
				"heartbeat_stale": true}`,
		},
		{
			Name:           "on_kanban_task_updated",
			Description:    "When a kanban task's fields change; a hook observes (sync to a tracker)",
			Fields:         []string{"task_id", "board", "changed_fields"},
			ShellSupported: true,
			Payload:        `{"task_id": "test-task", "board": "main", "changed_fields": ["status", "assignee"]}`,
		},
		{
			Name:           "on_kanban_dispatch_tick",
			Description:    "On each pass of the kanban dispatcher; a hook observes (metrics, liveness)",
			Fields:         []string{"board", "profile_name", "dry_run", "outcome"},
			ShellSupported: true,
			Payload:        `{"board": "main", "profile_name": "default", "dry_run": false, "outcome": "dispatched"}`,
		},
		{
			Name:           "gateway_platform_event",
			Description:    "When a messaging platform reports a non-message event (edit, typing, join); a hook observes",
			Fields:         []string{"platform", "event_type", "payload"},
			ShellSupported: true,
			Payload: `{"platform": "discord", "event_type": "message_edit",
				"payload": {"channel_id": "1122334455667788990", "message_id": "1199887766554433221",
					"content": "What is the weather tomorrow?"}}`,
		},
		{
			Name:           "pre_command",
			Description:    "Before a slash command runs (/model, /reset...); a hook observes",
			Fields:         []string{"surface", "command", "alias_used", "args_raw", "session_key", "platform"},
			ShellSupported: true,
			Payload: `{"surface": "gateway", "command": "model", "alias_used": null, "args_raw": "gpt-4o",
				"session_key": "agent:main:telegram:dm:123456789", "platform": "telegram"}`,
		},
		{
			Name:           "pre_tts_synthesis",
			Description:    "Before text is turned into speech; a hook observes",
			Fields:         []string{"text", "provider"},
			ShellSupported: true,
			Payload:        `{"text": "It is sunny and 22°C in Paris.", "provider": "edge"}`,
		},
	}
})

// Shared field lists and payload heads of the events the spec defines as
// "as X" or "X + ...". Events that extend a list use a full slice
// expression, so append always copies and never writes into the shared one.
var (
	toolResultFields = []string{"tool_name", "args", "result", "task_id", "session_id", "tool_call_id",
		"turn_id", "api_request_id", "duration_ms", "status"}
	sessionReasonFields = []string{"session_id", "platform", "reason"}
	streamFields        = []string{"turn_id", "iteration", "session_id", "model", "provider", "surface"}
	apiRequestFields    = []string{"task_id", "turn_id", "session_id", "platform", "model", "provider",
		"base_url", "api_mode", "api_call_count", "message_count", "tool_count", "approx_input_tokens",
		"request_char_count", "max_tokens"}
	auxFields        = []string{"aux_task", "task_id", "session_id", "model", "provider", "message_count"}
	approvalFields   = []string{"command", "description", "pattern_key", "pattern_keys", "session_key", "surface"}
	kanbanTaskFields = []string{"task_id", "profile_name", "board", "assignee", "run_id"}
)

const (
	toolResultPayload = `{"tool_name": "terminal", "args": {"command": "echo hello"},
		"result": "{\"output\": \"hello\"}", "task_id": "test-task", "session_id": "test-session",
		"tool_call_id": "test-call", "turn_id": "test-turn", "api_request_id": "test-api-request",
		"duration_ms": 42, "status": "ok"}`
	streamPayloadHead = `"turn_id": "test-turn", "iteration": 1, "session_id": "test-session",
		"model": "gpt-4", "provider": "openai", "surface": "cli"`
	apiRequestPayloadHead = `"task_id": "test-task", "turn_id": "test-turn", "session_id": "test-session",
		"platform": "cli", "model": "gpt-4", "provider": "openai", "base_url": "https://api.openai.com/v1",
		"api_mode": "chat_completions", "api_call_count": 1, "message_count": 3, "tool_count": 24,
		"approx_input_tokens": 2310, "request_char_count": 9240, "max_tokens": 4096`
	auxPayloadHead = `"aux_task": "title_generation", "task_id": "test-task", "session_id": "test-session",
		"model": "gpt-4o-mini", "provider": "openai", "message_count": 2`
	approvalPayloadHead = `"command": "rm -rf build/", "description": "recursive delete",
		"pattern_key": "rm_recursive", "pattern_keys": ["rm_recursive"],
		"session_key": "agent:main:cli:test-session", "surface": "cli"`
	kanbanTaskPayloadHead = `"task_id": "test-task", "profile_name": "default", "board": "main",
		"assignee": "coder", "run_id": "run-20250115-103000"`
)
