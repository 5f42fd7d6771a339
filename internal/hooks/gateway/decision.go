package gateway

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// The decisions a command:<name> handler may return (the agent's gateway
// since 2026-04): {"decision": "deny"|"handled"|"rewrite"|"allow", …}.
const (
	DecisionAllow   = "allow"
	DecisionDeny    = "deny"
	DecisionHandled = "handled"
	DecisionRewrite = "rewrite"
)

// Decisions lists them, for messages and case files.
var Decisions = []string{DecisionAllow, DecisionDeny, DecisionHandled, DecisionRewrite}

// IsCommandEvent reports whether event is one slash command's event
// (command:<name>), whose handlers may decide what becomes of the command.
func IsCommandEvent(event string) bool {
	name, ok := strings.CutPrefix(event, "command:")
	return ok && name != "" && name != "*"
}

// Decision is what the gateway does with a slash command once its
// handlers ran: the outcome of run-event command:<name>.
type Decision struct {
	Decision string  `json:"decision"`
	Message  *string `json:"message"` // deny: the reply; handled: the reply, if any
	Command  *string `json:"command"` // rewrite: the command run instead
	// By is the index of the hook that decided, -1 when none did (allow).
	By int `json:"-"`
	// Warnings name answers the gateway passes over: an unknown decision,
	// a rewrite without a command.
	Warnings []string `json:"-"`
}

// Decide routes a slash command as the agent's gateway does: handlers in
// order (exact subscribers, then command:*), the first deny, handled or
// rewrite wins; allow, nothing, an error or an unknown decision passes to
// the next handler; nothing decided is allow. hooks and results are
// parallel (Fire's answer).
func Decide(event string, hooks []Hook, results []Result) Decision {
	name := strings.TrimPrefix(event, "command:")
	d := Decision{Decision: DecisionAllow, By: -1}
	for i, res := range results {
		decision, ans, ok := decisionOf(res)
		if !ok {
			continue
		}
		who := res.Name
		if i < len(hooks) {
			who = hooks[i].Name
		}
		switch decision {
		case DecisionDeny:
			msg := nonBlank(ans, "message")
			if msg == nil {
				def := fmt.Sprintf("Command `/%s` was blocked by a hook.", name)
				msg = &def
			}
			d.Decision, d.Message, d.By = decision, msg, i
			return d
		case DecisionHandled:
			d.Decision, d.Message, d.By = decision, nonBlank(ans, "message"), i
			return d
		case DecisionRewrite:
			target := nonBlank(ans, "command_name")
			if target == nil {
				d.Warnings = append(d.Warnings, fmt.Sprintf("gateway hook %s answered rewrite without a command_name: passed on, as the gateway does", who))
				continue
			}
			cmd := "/" + strings.TrimPrefix(strings.TrimSpace(*target), "/")
			if args, _ := ans.Get("raw_args"); args != nil {
				if s, ok := args.(string); ok && strings.TrimSpace(s) != "" {
					cmd += " " + s
				}
			}
			d.Decision, d.Command, d.By = decision, &cmd, i
			return d
		case DecisionAllow:
		default:
			d.Warnings = append(d.Warnings, fmt.Sprintf("gateway hook %s answered decision %q, which the gateway does not know (%s): passed on",
				who, decision, strings.Join(Decisions, ", ")))
		}
	}
	return d
}

// Decided reports whether the result ends the routing (deny, handled, or
// a rewrite with a command): the gateway runs no later handler.
func Decided(res Result) bool {
	decision, ans, ok := decisionOf(res)
	switch decision {
	case DecisionDeny, DecisionHandled:
		return ok
	case DecisionRewrite:
		return ok && nonBlank(ans, "command_name") != nil
	}
	return false
}

// decisionOf reads a handler's {"decision": …} answer; ok is false when it
// gave none (no dict, no string decision, an error, a repr).
func decisionOf(res Result) (string, *pyjson.Object, bool) {
	if res.Status != StatusOK || res.Repr || len(res.Result) == 0 {
		return "", nil, false
	}
	ans, err := pyjson.DecodeObject(res.Result)
	if err != nil {
		return "", nil, false
	}
	v, _ := ans.Get("decision")
	s, ok := v.(string)
	return s, ans, ok
}

func nonBlank(o *pyjson.Object, key string) *string {
	v, _ := o.Get(key)
	if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
		return &s
	}
	return nil
}

// decisionName is the decision a result made, for messages.
func decisionName(res Result) string {
	d, _, _ := decisionOf(res)
	return d
}
