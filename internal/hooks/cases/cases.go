// Package cases reads policy case files (SPEC §16) and judges what a firing
// did against what a case expects. The firing itself is the engine's: a
// case runs through hooks.Engine.DispatchShellWith in policy mode, the same
// loop as run-event.
package cases

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Case is one entry of a case file.
type Case struct {
	Name  string
	Event string
	// Payload is the payload given (fields or wire shape), nil when none:
	// it is merged over the event's synthetic payload, as test does.
	Payload *pyjson.Object
	Expect  Expect
	// Canary: a harmless call that must never be blocked (SPEC §26): it
	// fails when the outcome blocks, whatever else it expects (approve,
	// modify and context are not blocks).
	Canary bool
	File   string
	Line   int // line of the case's entry
}

// canaryEvent is the one event whose outcome can block a call.
const canaryEvent = "pre_tool_call"

// Check judges what the firing did: the expectations not met, and a
// canary that was blocked.
func (c Case) Check(got Got) []string {
	out := c.Expect.Check(got)
	if c.Canary && got.Action != nil && *got.Action == ActionBlock {
		out = append(out, "canary blocked: "+quoteOrNull(got.Message))
	}
	return out
}

// ActionBlock is the action of an outcome that blocks the call.
const ActionBlock = "block"

// Expect holds what a case expects; nil fields (and HasArgs false) are
// not checked.
type Expect struct {
	// Action: pre_tool_call allow, block, approve or modify (see Got.Action);
	// pre_verify continue or finish.
	Action          *string
	MessageContains *string
	ContextContains *string
	// Args are the expected final arguments when HasArgs: an object, or
	// nil for "no hook modified them".
	Args       *pyjson.Object
	HasArgs    bool
	HooksFired *int
	// Decision and Command: a slash command's routing (command:<name>):
	// allow, deny, handled or rewrite, and the command a rewrite runs.
	Decision *string
	Command  *string
}

// Object is the expectation as given, keys in a fixed order.
func (x Expect) Object() *pyjson.Object {
	o := pyjson.NewObject()
	if x.Action != nil {
		o.Set("action", *x.Action)
	}
	if x.MessageContains != nil {
		o.Set("message_contains", *x.MessageContains)
	}
	if x.ContextContains != nil {
		o.Set("context_contains", *x.ContextContains)
	}
	if x.HasArgs {
		o.Set("args", x.Args)
	}
	if x.HooksFired != nil {
		o.Set("hooks_fired", *x.HooksFired)
	}
	if x.Decision != nil {
		o.Set("decision", *x.Decision)
	}
	if x.Command != nil {
		o.Set("command", *x.Command)
	}
	return o
}

// MarshalJSON writes Object.
func (x Expect) MarshalJSON() ([]byte, error) { return x.Object().MarshalJSON() }

// Check compares got with the expectations and describes each one not
// met, in a fixed order ("" for none).
func (x Expect) Check(got Got) []string {
	var out []string
	if x.Action != nil && (got.Action == nil || *got.Action != *x.Action) {
		out = append(out, fmt.Sprintf("action: expected %q, got %s", *x.Action, quoteOrNull(got.Action)))
	}
	if x.MessageContains != nil && (got.Message == nil || !strings.Contains(*got.Message, *x.MessageContains)) {
		out = append(out, fmt.Sprintf("message: expected one containing %q, got %s", *x.MessageContains, quoteOrNull(got.Message)))
	}
	if x.ContextContains != nil && (got.Context == nil || !strings.Contains(*got.Context, *x.ContextContains)) {
		out = append(out, fmt.Sprintf("context: expected one containing %q, got %s", *x.ContextContains, quoteOrNull(got.Context)))
	}
	if x.HasArgs && !equalJSON(objectOrNil(x.Args), objectOrNil(got.Args)) {
		out = append(out, fmt.Sprintf("args: expected %s, got %s", jsonText(x.Args), jsonText(got.Args)))
	}
	if x.HooksFired != nil && *x.HooksFired != got.HooksFired {
		out = append(out, fmt.Sprintf("hooks_fired: expected %d, got %d", *x.HooksFired, got.HooksFired))
	}
	if x.Decision != nil && (got.Decision == nil || *got.Decision != *x.Decision) {
		out = append(out, fmt.Sprintf("decision: expected %q, got %s", *x.Decision, quoteOrNull(got.Decision)))
	}
	if x.Command != nil && (got.Command == nil || *got.Command != *x.Command) {
		out = append(out, fmt.Sprintf("command: expected %q, got %s", *x.Command, quoteOrNull(got.Command)))
	}
	return out
}

// quoteOrNull shows a string Go-quoted, which also makes control
// characters from a hook visible; nil is null.
func quoteOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	const limit = 300
	if r := []rune(*s); len(r) > limit {
		return fmt.Sprintf("%q (%d characters)", string(r[:limit])+"…", len(r))
	}
	return fmt.Sprintf("%q", *s)
}

// objectOrNil keeps a nil *Object an untyped nil for equalJSON.
func objectOrNil(o *pyjson.Object) any {
	if o == nil {
		return nil
	}
	return o
}

func jsonText(o *pyjson.Object) string {
	if o == nil {
		return "null"
	}
	return o.String()
}
