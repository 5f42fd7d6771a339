package cases

import (
	"encoding/json"
	"math/big"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// ActionModify is the action a case sees for a pre_tool_call that goes
// ahead with rewritten arguments: the outcome says "allow" and carries the
// merged args.
const ActionModify = "modify"

// Got is what a firing did, in the terms a case checks.
type Got struct {
	// Action: pre_tool_call "block", "approve", "modify" (allowed with
	// rewritten args) or "allow" (allowed unchanged); pre_verify "continue"
	// or "finish"; nil for events whose outcome has no action.
	Action *string `json:"action"`
	// Message: the block or approval message (pre_tool_call), the nudge
	// (pre_verify).
	Message *string `json:"message"`
	// Context: pre_llm_call's contexts joined with a blank line.
	Context *string `json:"context"`
	// Args: the final arguments of pre_tool_call, nil when no hook
	// modified them.
	Args       *pyjson.Object `json:"args"`
	HooksFired int            `json:"hooks_fired"`
	// Decision and Command: a slash command's routing (command:<name>
	// cases only; Message is a deny's or handled's reply).
	Decision *string `json:"decision,omitempty"`
	Command  *string `json:"command,omitempty"`
}

// ObserveGateway reads a slash command's firing: its decision, the reply
// and the command a rewrite runs, and how many handlers ran.
func ObserveGateway(g *hooks.GatewayFiring) Got {
	var got Got
	for _, r := range g.Results {
		if !r.NotRun {
			got.HooksFired++
		}
	}
	if d := g.Decision; d != nil {
		decision := d.Decision
		got.Decision, got.Message, got.Command = &decision, d.Message, d.Command
	}
	return got
}

// Observe reads a firing's outcome. Each outcome has exactly one action:
// a pre_tool_call both approved and rewritten is "approve" (its args are
// still in Args), one both blocked and rewritten is "block".
func Observe(d *hooks.Dispatch) Got {
	var g Got
	for _, r := range d.Runs {
		if r.Fired() {
			g.HooksFired++
		}
	}
	o := d.Outcome
	if o == nil {
		return g
	}
	g.Message, g.Context, g.Args = o.Message, o.Context, o.Args
	if o.Action != "" {
		action := o.Action
		if action == hooks.OutcomeAllow && o.Args != nil {
			action = ActionModify
		}
		g.Action = &action
	}
	return g
}

// equalJSON compares two decoded JSON values as JSON: objects whatever
// their key order, numbers by value (1 equals 1.0, as in Python).
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case *pyjson.Object:
		b, ok := b.(*pyjson.Object)
		if !ok || a.Len() != b.Len() {
			return false
		}
		for _, m := range a.Members() {
			v, ok := b.Get(m.Key)
			if !ok || !equalJSON(m.Value, v) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	case nil, bool, string:
		return a == b
	}
	x, okA := number(a)
	y, okB := number(b)
	return okA && okB && x.Cmp(y) == 0
}

// number reads the numeric types a decoded value may hold exactly.
func number(v any) (*big.Float, bool) {
	f := new(big.Float).SetPrec(256)
	switch n := v.(type) {
	case json.Number:
		if _, ok := f.SetString(string(n)); ok {
			return f, true
		}
	case int:
		return f.SetInt64(int64(n)), true
	case int64:
		return f.SetInt64(n), true
	case float64:
		if n == n { // not NaN: NaN equals nothing
			return f.SetFloat64(n), true
		}
	}
	return nil, false
}
