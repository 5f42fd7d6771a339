package answer

import (
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

func exited(code int, stdout string) shell.Result {
	return shell.Result{ExitCode: &code, Stdout: stdout}
}

// TestKind names each answer as the audit log records it.
func TestKind(t *testing.T) {
	tests := []struct {
		event, stdout string
		code          int
		want          string
	}{
		{"pre_tool_call", `{"action": "block", "message": "no"}`, 0, KindBlock},
		{"pre_tool_call", ``, 2, KindBlock},
		{"pre_tool_call", `{"action": "modify", "args": {"a": 1}}`, 0, KindModify},
		{"pre_tool_call", `{"action": "approve"}`, 0, KindApprove},
		{"pre_llm_call", `{"context": "c"}`, 0, KindContext},
		{"pre_verify", `{"action": "continue", "message": "keep going"}`, 0, KindBlock},
		{"pre_tool_call", `not json`, 0, KindNone},
		{"post_tool_call", ``, 1, KindNone},
	}
	for _, tt := range tests {
		ev := Evaluate(EvalInput{Event: tt.event, Blocking: tt.event == EventPreToolCall, Result: exited(tt.code, tt.stdout)})
		if got := ev.Answer.Kind(); got != tt.want {
			t.Errorf("%s %q exit %d: Kind = %q, want %q", tt.event, tt.stdout, tt.code, got, tt.want)
		}
	}
}
