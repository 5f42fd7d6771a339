package hooks

import "github.com/hermes-hooks/hermes/internal/answer"

// The answer judge lives in package answer, so the guard can use it without
// the engine; these names keep the engine's vocabulary.
type (
	Answer     = answer.Answer
	EvalInput  = answer.EvalInput
	Evaluation = answer.Evaluation
)

// Actions an Answer can carry.
const (
	ActionBlock    = answer.ActionBlock
	ActionModify   = answer.ActionModify
	ActionApprove  = answer.ActionApprove
	ActionContinue = answer.ActionContinue
)

const (
	eventPreToolCall = answer.EventPreToolCall
	eventPreLLMCall  = answer.EventPreLLMCall
	eventPreVerify   = answer.EventPreVerify
)

// Evaluate applies SPEC §7 to one run (see answer.Evaluate).
func Evaluate(in EvalInput) Evaluation { return answer.Evaluate(in) }

func notJSON(out string, err error) string { return answer.NotJSON(out, err) }
