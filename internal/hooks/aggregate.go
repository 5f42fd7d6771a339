package hooks

import (
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Outcome actions that only exist after aggregation.
const (
	OutcomeAllow  = "allow"  // pre_tool_call: nothing blocked or approved
	OutcomeFinish = "finish" // pre_verify: no hook asked to continue
)

// Outcome is what the agent would do with the answers of all hooks of one
// event (SPEC §7.1). A nil *Outcome is an observer event's outcome and
// marshals to null.
type Outcome struct {
	Event string
	// Action: pre_tool_call "block", "approve" or "allow"; pre_verify
	// "continue" or "finish"; "" for pre_llm_call.
	Action  string
	Message *string
	RuleKey *string
	// Args are the original args with every modify merged in; nil when no
	// hook modified them.
	Args *pyjson.Object
	// Context is every pre_llm_call context joined with a blank line.
	Context *string
}

// Aggregate combines the answers of an event's hooks, given in config order
// (nil for a hook that contributed nothing), into the agent's decision.
// originalArgs are the tool call's args (nil when there are none or they are
// not an object).
//
// On pre_tool_call, Args holds the merged modifies even when a hook blocks:
// the outcome reports everything the hooks said, and action "block" already
// tells that the call, rewritten or not, does not run.
func Aggregate(event string, originalArgs *pyjson.Object, answers []*Answer) *Outcome {
	switch event {
	case eventPreToolCall:
		return aggregateToolCall(originalArgs, answers)
	case eventPreLLMCall:
		var parts []string
		for _, a := range answers {
			if a != nil && a.Action == "" && a.Context != nil {
				parts = append(parts, *a.Context)
			}
		}
		out := &Outcome{Event: event}
		if len(parts) > 0 {
			joined := strings.Join(parts, "\n\n")
			out.Context = &joined
		}
		return out
	case eventPreVerify:
		for _, a := range answers {
			if a != nil && a.Action == ActionContinue {
				msg := a.Message
				return &Outcome{Event: event, Action: ActionContinue, Message: &msg}
			}
		}
		return &Outcome{Event: event, Action: OutcomeFinish}
	}
	return nil
}

func aggregateToolCall(originalArgs *pyjson.Object, answers []*Answer) *Outcome {
	out := &Outcome{Event: eventPreToolCall, Action: OutcomeAllow}
	var block, approve *Answer
	for _, a := range answers {
		if a == nil {
			continue
		}
		switch a.Action {
		case ActionBlock:
			if block == nil {
				block = a
			}
		case ActionApprove:
			if approve == nil {
				approve = a
			}
		case ActionModify:
			if a.Args.Len() == 0 {
				continue
			}
			if out.Args == nil {
				out.Args = originalArgs.Clone()
			}
			for _, m := range a.Args.Members() {
				out.Args.Set(m.Key, m.Value)
			}
		}
	}
	switch {
	case block != nil:
		out.Action = ActionBlock
		out.Message = pyjson.NullIfEmpty(block.Message)
	case approve != nil:
		out.Action = ActionApprove
		out.Message = pyjson.NullIfEmpty(approve.Message)
		out.RuleKey = pyjson.NullIfEmpty(approve.RuleKey)
	}
	return out
}

// IsBlock reports whether o stops the tool call (run-event --exit-code).
func IsBlock(o *Outcome) bool {
	return o != nil && o.Event == eventPreToolCall && o.Action == ActionBlock
}

// Object is the outcome as reported by run-event, keys in a fixed order:
//
//	pre_tool_call: {"action", "message", "rule_key", "args"} (absent = null)
//	pre_llm_call:  {"context"}
//	pre_verify:    {"action": "continue", "message"} or {"action": "finish"}
//
// A nil outcome is nil (null).
func (o *Outcome) Object() *pyjson.Object {
	if o == nil {
		return nil
	}
	obj := pyjson.NewObject()
	switch o.Event {
	case eventPreToolCall:
		obj.Set("action", o.Action).
			Set("message", stringOrNull(o.Message)).
			Set("rule_key", stringOrNull(o.RuleKey)).
			Set("args", o.Args)
	case eventPreLLMCall:
		obj.Set("context", stringOrNull(o.Context))
	case eventPreVerify:
		obj.Set("action", o.Action)
		if o.Action == ActionContinue {
			obj.Set("message", stringOrNull(o.Message))
		}
	}
	return obj
}

// MarshalJSON writes Object, so an Outcome can sit in typed --json output.
func (o *Outcome) MarshalJSON() ([]byte, error) {
	return pyjson.Marshal(o.Object(), pyjson.Options{Compact: true, Embed: true}), nil
}

func stringOrNull(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}
