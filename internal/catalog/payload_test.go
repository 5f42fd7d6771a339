package catalog

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func testObj(t testing.TB, text string) *pyjson.Object {
	t.Helper()
	obj, err := pyjson.DecodeObject([]byte(text))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", text, err)
	}
	return obj
}

func TestWire(t *testing.T) {
	tests := []struct {
		name, event, fields, want string
	}{
		{"pre_tool_call synthetic", "pre_tool_call",
			`{"tool_name": "terminal", "args": {"command": "echo hello"}, "task_id": "test-task", "session_id": "test-session", "tool_call_id": "test-call"}`,
			`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "echo hello"}, "session_id": "test-session", "cwd": "/w", "profile": "default", "extra": {"task_id": "test-task", "tool_call_id": "test-call"}}`},
		{"no tool fields", "pre_llm_call",
			`{"session_id": "s", "user_message": "hi", "conversation_history": []}`,
			`{"hook_event_name": "pre_llm_call", "tool_name": null, "tool_input": null, "session_id": "s", "cwd": "/w", "profile": "default", "extra": {"user_message": "hi", "conversation_history": []}}`},
		{"empty fields", "on_session_start", `{}`,
			`{"hook_event_name": "on_session_start", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"parent session id when no session id", "subagent_start",
			`{"parent_session_id": "p", "child_session_id": "c"}`,
			`{"hook_event_name": "subagent_start", "tool_name": null, "tool_input": null, "session_id": "p", "cwd": "/w", "profile": "default", "extra": {"child_session_id": "c"}}`},
		{"session id wins over parent", "x", `{"parent_session_id": "p", "session_id": "s"}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "s", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"empty session id falls through", "x", `{"session_id": "", "parent_session_id": "p"}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "p", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"null session id falls through", "x", `{"session_id": null, "parent_session_id": "p"}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "p", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"zero and false fall through to empty", "x", `{"session_id": 0, "parent_session_id": false}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"zero float and empty containers fall through", "x", `{"session_id": 0.0, "parent_session_id": {}}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"empty list session id falls through", "x", `{"session_id": [], "parent_session_id": 0}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"truthy non-string session id passes as given", "x", `{"session_id": 42}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": 42, "cwd": "/w", "profile": "default", "extra": {}}`},
		{"truthy object parent id passes as given", "x", `{"session_id": false, "parent_session_id": {"id": 1}}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": {"id": 1}, "cwd": "/w", "profile": "default", "extra": {}}`},
		{"non-object args give null tool_input and stay out of extra", "pre_tool_call",
			`{"tool_name": "t", "args": "ls -l"}`,
			`{"hook_event_name": "pre_tool_call", "tool_name": "t", "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"list args", "pre_tool_call", `{"args": [1, 2]}`,
			`{"hook_event_name": "pre_tool_call", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"non-string tool name passes as given", "pre_tool_call", `{"tool_name": 5}`,
			`{"hook_event_name": "pre_tool_call", "tool_name": 5, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"empty tool name stays empty", "pre_tool_call", `{"tool_name": ""}`,
			`{"hook_event_name": "pre_tool_call", "tool_name": "", "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {}}`},
		{"extra keeps field order and reserved-looking names", "x",
			`{"z": 1, "cwd": "/elsewhere", "a": 2, "profile": "p", "hook_event_name": "y", "tool_input": 3}`,
			`{"hook_event_name": "x", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "default", "extra": {"z": 1, "cwd": "/elsewhere", "a": 2, "profile": "p", "hook_event_name": "y", "tool_input": 3}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Wire(tt.event, testObj(t, tt.fields), "/w", "default")
			if got := string(WireBytes(w)); got != tt.want {
				t.Errorf("wire:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestWireNilFields(t *testing.T) {
	got := string(WireBytes(Wire("on_session_end", nil, "", "")))
	want := `{"hook_event_name": "on_session_end", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "", "profile": "", "extra": {}}`
	if got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestWireBytesLeavesNonASCII(t *testing.T) {
	fields := testObj(t, `{"text": "Il fait 22°C à Paris ☀ \u2028 日本", "quote": "a\"b\\c\n"}`)
	got := WireBytes(Wire("pre_tts_synthesis", fields, "/home/zoë", "défaut"))
	want := "{\"hook_event_name\": \"pre_tts_synthesis\", \"tool_name\": null, \"tool_input\": null, \"session_id\": \"\", " +
		"\"cwd\": \"/home/zoë\", \"profile\": \"défaut\", " +
		"\"extra\": {\"text\": \"Il fait 22°C à Paris ☀ \u2028 日本\", \"quote\": \"a\\\"b\\\\c\\n\"}}"
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if bytes.Contains(got, []byte(`\u`)) {
		t.Errorf("non-ASCII was escaped: %s", got)
	}
}

func TestNormalizeInput(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"fields shape is kept", `{"tool_name": "terminal", "args": {"command": "ls"}, "task_id": "t"}`,
			`{"tool_name": "terminal", "args": {"command": "ls"}, "task_id": "t"}`},
		{"fields shape with cwd is kept", `{"cwd": "/x", "task_id": "t"}`, `{"cwd": "/x", "task_id": "t"}`},
		// SPEC §20: a key only the wire shape has makes it the wire shape.
		{"an extra object is the wire shape", `{"cwd": "/x", "extra": {"a": 1}}`, `{"a": 1}`},
		{"tool_input without hook_event_name", `{"tool_name": "terminal", "tool_input": {"command": "rm"}}`,
			`{"tool_name": "terminal", "args": {"command": "rm"}}`},
		{"mixed: tool_input wins over args", `{"args": {"command": "ls"}, "tool_input": {"command": "rm"}}`, `{"args": {"command": "rm"}}`},
		{"mixed: args beside hook_event_name stands", `{"hook_event_name": "x", "args": {"command": "ls"}}`, `{"args": {"command": "ls"}}`},
		{"an extra that is not an object is a field", `{"extra": 1}`, `{"extra": 1}`},
		{"empty", `{}`, `{}`},
		{"wire shape", `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/w", "profile": "default", "extra": {"task_id": "t", "tool_call_id": "c"}}`,
			`{"tool_name": "terminal", "args": {"command": "ls"}, "session_id": "s", "task_id": "t", "tool_call_id": "c"}`},
		{"wire nulls are kept", `{"hook_event_name": "pre_llm_call", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "profile": "p", "extra": {"model": "gpt-4"}}`,
			`{"tool_name": null, "args": null, "session_id": "", "model": "gpt-4"}`},
		{"minimal wire", `{"hook_event_name": "x"}`, `{}`},
		{"top level wins over extra", `{"hook_event_name": "x", "session_id": "top", "extra": {"session_id": "inner", "k": 1}}`,
			`{"session_id": "top", "k": 1}`},
		{"extra may add reserved names", `{"hook_event_name": "x", "extra": {"parent_session_id": "p", "cwd": "/c", "hook_event_name": "y"}}`,
			`{"parent_session_id": "p", "cwd": "/c", "hook_event_name": "y"}`},
		{"non-object extra is ignored", `{"hook_event_name": "x", "extra": [1, 2]}`, `{}`},
		{"null extra is ignored", `{"hook_event_name": "x", "extra": null}`, `{}`},
		{"unknown top-level keys are kept", `{"task_id": "t", "hook_event_name": "x", "extra": {"a": 1}}`,
			`{"task_id": "t", "a": 1}`},
		{"non-object tool_input is kept as args", `{"hook_event_name": "x", "tool_input": "ls"}`, `{"args": "ls"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := testObj(t, tt.in)
			before := in.String()
			got := NormalizeInput(in)
			if got.String() != testObj(t, tt.want).String() {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if in.String() != before {
				t.Errorf("input modified: %s", in)
			}
			got.Set("new", 1)
			if in.Has("new") {
				t.Error("result shares its top level with the input")
			}
		})
	}
	for in, want := range map[string]struct {
		note  string
		mixed bool
	}{
		`{"tool_name": "t", "args": {}}`:                          {"", false},
		`{"hook_event_name": "x", "tool_input": {}, "extra": {}}`: {"", false},
		`{"tool_input": {}}`:                                      {"read as the hook's stdin shape (tool_input)", false},
		`{"args": {}, "tool_input": {}}`:                          {"args is ignored", true},
		`{"hook_event_name": "x", "args": {}}`:                    {"with args as the tool's input", true},
		`{"extra": {"a": 1}}`:                                     {"read as the hook's stdin shape (extra)", false},
	} {
		_, note, mixed := ReadShape(testObj(t, in))
		if want.note == "" && note != "" || !strings.Contains(note, want.note) || mixed != want.mixed {
			t.Errorf("ReadShape(%s) = %q, %v; want %q, %v", in, note, mixed, want.note, want.mixed)
		}
	}
	if got := NormalizeInput(nil); got == nil || got.Len() != 0 {
		t.Errorf("NormalizeInput(nil) = %v, want {}", got)
	}
}

// A payload recorded from a real firing replays to the same stdin.
func TestWireReplayRoundTrip(t *testing.T) {
	for _, fields := range []string{
		`{"tool_name": "terminal", "args": {"command": "echo hello"}, "task_id": "test-task", "session_id": "test-session", "tool_call_id": "test-call"}`,
		`{"parent_session_id": "p", "child_session_id": "c", "child_role": "coder"}`,
		`{"session_id": "", "parent_session_id": ""}`,
		`{"session_id": 0, "parent_session_id": 7}`,
		`{"tool_name": "t", "args": "not an object", "result": "{\"output\": \"hello\"}"}`,
		`{"cwd": "/mine", "profile": "x", "hook_event_name": "y", "tool_input": 1, "extra": {"nested": true}}`,
		`{"text": "22°C ☀"}`,
		`{}`,
	} {
		w := Wire("pre_tool_call", testObj(t, fields), "/w", "default")
		replayed := Wire("pre_tool_call", NormalizeInput(w), "/w", "default")
		if a, b := WireBytes(replayed), WireBytes(w); !bytes.Equal(a, b) {
			t.Errorf("fields %s\nreplayed %s\noriginal %s", fields, a, b)
		}
	}
}

func TestMergeFields(t *testing.T) {
	tests := []struct {
		name, base, given, want string
	}{
		{"given wins in base order", `{"tool_name": "terminal", "args": {"command": "echo hello"}, "task_id": "t"}`,
			`{"task_id": "mine", "tool_name": "read_file"}`,
			`{"tool_name": "read_file", "args": {"command": "echo hello"}, "task_id": "mine"}`},
		{"new keys appended in given order", `{"a": 1}`, `{"z": 2, "b": 3, "a": 4}`, `{"a": 4, "z": 2, "b": 3}`},
		{"shallow: objects are replaced, not merged", `{"args": {"command": "x", "cwd": "/"}}`, `{"args": {"path": "y"}}`,
			`{"args": {"path": "y"}}`},
		{"null given wins", `{"tool_name": "terminal"}`, `{"tool_name": null}`, `{"tool_name": null}`},
		{"empty given", `{"a": 1}`, `{}`, `{"a": 1}`},
		{"empty base", `{}`, `{"a": 1}`, `{"a": 1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, given := testObj(t, tt.base), testObj(t, tt.given)
			b0, g0 := base.String(), given.String()
			got := MergeFields(base, given)
			if got.String() != testObj(t, tt.want).String() {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if base.String() != b0 || given.String() != g0 {
				t.Errorf("inputs modified: %s, %s", base, given)
			}
		})
	}
	if got := MergeFields(nil, nil); got == nil || got.Len() != 0 {
		t.Errorf("MergeFields(nil, nil) = %v, want {}", got)
	}
}

func TestWireKeyOrder(t *testing.T) {
	w := Wire("e", testObj(t, `{"extra_b": 1, "session_id": "s", "extra_a": 2, "tool_name": "t"}`), "/", "p")
	want := []string{"hook_event_name", "tool_name", "tool_input", "session_id", "cwd", "profile", "extra"}
	if !slices.Equal(w.Keys(), want) {
		t.Errorf("keys = %v, want %v", w.Keys(), want)
	}
	extra, _ := w.Get("extra")
	if got := extra.(*pyjson.Object).Keys(); !slices.Equal(got, []string{"extra_b", "extra_a"}) {
		t.Errorf("extra keys = %v", got)
	}
}

func TestPyTruthy(t *testing.T) {
	tests := []struct {
		json string
		want bool
	}{
		{`null`, false}, {`false`, false}, {`true`, true}, {`0`, false}, {`-0`, false}, {`0.0`, false},
		{`0e10`, false}, {`1e-400`, false}, {`1e400`, true}, {`-1`, true}, {`0.5`, true},
		{`""`, false}, {`" "`, true}, {`"0"`, true}, {`[]`, false}, {`[0]`, true}, {`{}`, false}, {`{"a": null}`, true},
	}
	for _, tt := range tests {
		v, err := pyjson.Decode([]byte(tt.json))
		if err != nil {
			t.Fatalf("%s: %v", tt.json, err)
		}
		if got := pyTruthy(v); got != tt.want {
			t.Errorf("pyTruthy(%s) = %v, want %v", tt.json, got, tt.want)
		}
	}
}

// FuzzNormalize: any JSON object normalises without panicking, and any
// fields object replays through its own wire shape unchanged.
func FuzzNormalize(f *testing.F) {
	f.Add([]byte(`{"hook_event_name": "pre_tool_call", "tool_name": "t", "tool_input": {"a": 1}, "session_id": "s", "extra": {"k": [1]}}`))
	f.Add([]byte(`{"tool_name": "terminal", "args": {"command": "echo hello"}, "session_id": 0, "parent_session_id": "p"}`))
	f.Add([]byte(`{"hook_event_name": null, "extra": "x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Decode(data)
		if err != nil {
			return
		}
		obj, ok := v.(*pyjson.Object)
		if !ok {
			return
		}
		fields := NormalizeInput(obj)
		if fields.Has("hook_event_name") && obj.Has("hook_event_name") {
			extra, _ := obj.Get("extra")
			if e, _ := extra.(*pyjson.Object); !e.Has("hook_event_name") {
				t.Fatalf("hook_event_name survived normalising %s", data)
			}
		}
		_ = MergeFields(obj, fields)
		w := Wire("pre_tool_call", obj, "/w", "p")
		replayed := Wire("pre_tool_call", NormalizeInput(w), "/w", "p")
		if a, b := WireBytes(replayed), WireBytes(w); !bytes.Equal(a, b) {
			t.Fatalf("replay of %s\n got %s\nwant %s", data, a, b)
		}
	})
}

// The bytes a hook reads are the agent's for the same values (SPEC §14):
// numbers re-spelled as Python prints them, NaN and Infinity bare.
func TestWireBytesSpellsNumbersLikePython(t *testing.T) {
	fields := testObj(t, `{"tool_name": "terminal", "args": {"a": 1E2, "b": 1e-7, "c": -0, "d": -0.0, "e": 123456789012345678901234567890},
		"x": [NaN, Infinity, -Infinity, 1e16, 0.0001, 1e-5, 1e400, 2.50]}`)
	got := string(WireBytes(Wire("pre_tool_call", fields, "/w", "default")))
	want := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", ` +
		`"tool_input": {"a": 100.0, "b": 1e-07, "c": 0, "d": -0.0, "e": 123456789012345678901234567890}, ` +
		`"session_id": "", "cwd": "/w", "profile": "default", ` +
		`"extra": {"x": [NaN, Infinity, -Infinity, 1e+16, 0.0001, 1e-05, Infinity, 2.5]}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
