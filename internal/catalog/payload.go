package catalog

import (
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Payload shapes (SPEC §6).
//
// A payload exists in two shapes. The fields shape is the agent's keyword
// arguments ({"tool_name": ..., "args": {...}, "task_id": ...}); it is what
// synthetic payloads, merging and matchers work on. The wire shape is the
// object a hook reads on stdin; it is derived from the fields shape when a
// hook fires and never stored.

// Keys of the wire object, in the order the agent writes them.
const (
	wireEventKey     = "hook_event_name"
	WireToolNameKey  = "tool_name"
	wireToolInputKey = "tool_input"
	WireSessionKey   = "session_id"
	wireCwdKey       = "cwd"
	wireProfileKey   = "profile"
	wireExtraKey     = "extra"
)

// Field names the wire object lifts to its top level; they never appear in
// its extra.
const (
	FieldToolName        = "tool_name"
	FieldArgs            = "args"
	fieldSessionID       = "session_id"
	fieldParentSessionID = "parent_session_id"
)

// NormalizeInput turns a payload given by a user (to test or run-event) into
// the fields shape (ReadShape without its note).
func NormalizeInput(in *pyjson.Object) *pyjson.Object {
	out, _, _ := ReadShape(in)
	return out
}

// ReadShape turns a payload given by a user into the fields shape, and
// says how it was read when that is not obvious (SPEC §20). An object
// with any key only the wire shape has (hook_event_name, tool_input, or an
// extra object) is read as the wire shape, as recorded from a real firing,
// so that it can be replayed; never is tool_input silently moved into
// extra, where a guard would see no command:
//
//   - tool_input becomes args, and tool_name and session_id are kept, all
//     three as given, null included: a replay then feeds the hook exactly
//     the recorded tool_name and tool_input even when a synthetic payload is
//     merged under it;
//   - the members of extra (when it is an object) become fields, after the
//     top-level ones and in their order; a top-level key wins over the same
//     key in extra, since extra never legitimately repeats one;
//   - hook_event_name, cwd and profile are dropped: they are recomputed when
//     the hook fires;
//   - args, given beside tool_input (a mix of the two shapes), is dropped:
//     tool_input is what the hook reads; beside hook_event_name alone it
//     stands for the tool input;
//   - any other top-level key is kept as a field, so a hand-written payload
//     loses nothing.
//
// Anything else is already in fields shape and is returned as a copy. The
// result never shares its top level with in (values are shared). A nil in
// gives an empty object. note is "" for a payload in one shape, else says
// what was done.
func ReadShape(in *pyjson.Object) (out *pyjson.Object, note string, mixed bool) {
	if in == nil {
		return pyjson.NewObject(), "", false
	}
	hasEvent, hasInput, hasArgs := in.Has(wireEventKey), in.Has(wireToolInputKey), in.Has(FieldArgs)
	extraValue, hasExtra := in.Get(wireExtraKey)
	extra, extraObj := extraValue.(*pyjson.Object)
	if !hasEvent && !hasInput && !(hasExtra && extraObj) {
		return in.Clone(), "", false
	}
	switch {
	case hasArgs && hasInput:
		note, mixed = "the payload mixes the agent's fields (args) and the wire shape a hook reads (tool_input): read as the wire shape, tool_input is the tool's input and args is ignored", true
	case hasArgs:
		note, mixed = "the payload mixes the agent's fields (args) and the wire shape a hook reads (hook_event_name, extra): read as the wire shape, with args as the tool's input", true
	// Wholly the wire shape, only without hook_event_name: nothing is
	// wrong, so one short line says how it was read (SPEC §28 item 6).
	case !hasEvent && hasInput:
		note = "read as the hook's stdin shape (tool_input)"
	case !hasEvent:
		note = "read as the hook's stdin shape (extra)"
	}
	out = pyjson.NewObject()
	for _, m := range in.Members() {
		switch m.Key {
		case wireEventKey, wireCwdKey, wireProfileKey:
		case wireToolInputKey:
			out.Set(FieldArgs, m.Value)
		case FieldArgs:
			if !hasInput {
				out.Set(FieldArgs, m.Value)
			}
		case wireExtraKey:
		default:
			out.Set(m.Key, m.Value)
		}
	}
	if extraObj {
		for _, m := range extra.Members() {
			if !out.Has(m.Key) {
				out.Set(m.Key, m.Value)
			}
		}
	}
	return out, note, mixed
}

// MergeFields overlays given on base (both in fields shape): base's keys keep
// their order, given's values win, and keys only given has are appended in
// given's order. Neither input is modified.
func MergeFields(base, given *pyjson.Object) *pyjson.Object {
	out := base.Clone()
	for _, m := range given.Members() {
		out.Set(m.Key, m.Value)
	}
	return out
}

// Wire builds the object a hook of event reads on stdin from a payload in
// fields shape, as the agent does:
//
//	hook_event_name, tool_name, tool_input, session_id, cwd, profile, extra
//
// tool_name is the field as given (any JSON value), null when missing.
// tool_input is args when args is an object, else null. session_id follows
// the agent's `kwargs.get("session_id") or kwargs.get("parent_session_id")
// or ""`: the first of the two whose value is truthy in Python's sense is
// passed through unchanged, whatever its type (a number stays a number);
// null, false, 0, "", [] and {} are falsy and fall through. extra holds every
// other field in order.
func Wire(event string, fields *pyjson.Object, cwd, profile string) *pyjson.Object {
	var toolName, toolInput any
	if v, ok := fields.Get(FieldToolName); ok {
		toolName = v
	}
	if args, ok := fields.Get(FieldArgs); ok {
		if obj, isObj := args.(*pyjson.Object); isObj && obj != nil {
			toolInput = obj
		}
	}
	var sessionID any = ""
	if v, _ := fields.Get(fieldSessionID); pyTruthy(v) {
		sessionID = v
	} else if v, _ := fields.Get(fieldParentSessionID); pyTruthy(v) {
		sessionID = v
	}
	extra := pyjson.NewObject()
	for _, m := range fields.Members() {
		switch m.Key {
		case FieldToolName, FieldArgs, fieldSessionID, fieldParentSessionID:
		default:
			extra.Set(m.Key, m.Value)
		}
	}
	return pyjson.NewObject().
		Set(wireEventKey, event).
		Set(WireToolNameKey, toolName).
		Set(wireToolInputKey, toolInput).
		Set(WireSessionKey, sessionID).
		Set(wireCwdKey, cwd).
		Set(wireProfileKey, profile).
		Set(wireExtraKey, extra)
}

// WireBytes is the exact stdin of a hook: Python's json.dumps(w,
// ensure_ascii=False) with its default ", " and ": " separators, no trailing
// newline, non-ASCII written as UTF-8.
func WireBytes(w *pyjson.Object) []byte {
	return pyjson.Marshal(w, pyjson.Options{})
}

// pyTruthy is Python's bool() of a decoded JSON value.
func pyTruthy(v any) bool { return answer.Truthy(v) }
