package hooks

import (
	"encoding/json"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// testObj decodes a JSON object literal for a test, failing it on bad JSON.
func testObj(t testing.TB, text string) *pyjson.Object {
	t.Helper()
	obj, err := pyjson.DecodeObject([]byte(text))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", text, err)
	}
	return obj
}

func answerBlock(msg string) *Answer { return &Answer{Action: ActionBlock, Message: msg} }
func answerApprove(msg, key string) *Answer {
	return &Answer{Action: ActionApprove, Message: msg, RuleKey: key}
}
func answerModify(t *testing.T, args string) *Answer {
	return &Answer{Action: ActionModify, Args: testObj(t, args)}
}
func answerContext(s string) *Answer    { return &Answer{Context: &s} }
func answerContinue(msg string) *Answer { return &Answer{Action: ActionContinue, Message: msg} }
func outcomeText(o *Outcome) string     { return string(pyjson.Marshal(o.Object(), pyjson.Options{})) }

func TestAggregatePreToolCall(t *testing.T) {
	orig := `{"command": "rm -rf /tmp/x", "timeout": 30}`
	tests := []struct {
		name    string
		answers []*Answer
		want    string
		isBlock bool
	}{
		{"no hooks", nil,
			`{"action": "allow", "message": null, "rule_key": null, "args": null}`, false},
		{"only nothing", []*Answer{nil, nil},
			`{"action": "allow", "message": null, "rule_key": null, "args": null}`, false},
		{"one block", []*Answer{nil, answerBlock("no")},
			`{"action": "block", "message": "no", "rule_key": null, "args": null}`, true},
		{"block outranks an earlier approve", []*Answer{answerApprove("fine", "k"), answerBlock("no")},
			`{"action": "block", "message": "no", "rule_key": null, "args": null}`, true},
		{"block outranks a later approve", []*Answer{answerBlock("no"), answerApprove("fine", "k")},
			`{"action": "block", "message": "no", "rule_key": null, "args": null}`, true},
		{"first block message wins", []*Answer{answerBlock("first"), nil, answerBlock("second")},
			`{"action": "block", "message": "first", "rule_key": null, "args": null}`, true},
		{"first approve wins", []*Answer{nil, answerApprove("one", "k1"), answerApprove("two", "k2")},
			`{"action": "approve", "message": "one", "rule_key": "k1", "args": null}`, false},
		{"approve without message or key", []*Answer{answerApprove("", ""), answerApprove("two", "k2")},
			`{"action": "approve", "message": null, "rule_key": null, "args": null}`, false},
		{"approve with rule key only", []*Answer{answerApprove("", "k")},
			`{"action": "approve", "message": null, "rule_key": "k", "args": null}`, false},
		{"modify merges onto the original args", []*Answer{answerModify(t, `{"command": "rm -rf /tmp/x/cache"}`)},
			`{"action": "allow", "message": null, "rule_key": null, "args": {"command": "rm -rf /tmp/x/cache", "timeout": 30}}`, false},
		{"modifies merge in order, later keys win, new keys appended", []*Answer{
			answerModify(t, `{"command": "a", "dry_run": true}`), nil, answerModify(t, `{"command": "b", "env": {"X": "1"}}`)},
			`{"action": "allow", "message": null, "rule_key": null, "args": {"command": "b", "timeout": 30, "dry_run": true, "env": {"X": "1"}}}`, false},
		{"shallow merge replaces nested objects", []*Answer{
			answerModify(t, `{"env": {"A": "1"}}`), answerModify(t, `{"env": {"B": "2"}}`)},
			`{"action": "allow", "message": null, "rule_key": null, "args": {"command": "rm -rf /tmp/x", "timeout": 30, "env": {"B": "2"}}}`, false},
		{"empty modify is no modify", []*Answer{answerModify(t, `{}`)},
			`{"action": "allow", "message": null, "rule_key": null, "args": null}`, false},
		{"modify with approve", []*Answer{answerModify(t, `{"timeout": 5}`), answerApprove("ok", "")},
			`{"action": "approve", "message": "ok", "rule_key": null, "args": {"command": "rm -rf /tmp/x", "timeout": 5}}`, false},
		{"block keeps the merged args", []*Answer{answerModify(t, `{"timeout": 5}`), answerBlock("no"), answerModify(t, `{"x": 1}`)},
			`{"action": "block", "message": "no", "rule_key": null, "args": {"command": "rm -rf /tmp/x", "timeout": 5, "x": 1}}`, true},
		{"context answers mean nothing here", []*Answer{answerContext("c"), answerContinue("m")},
			`{"action": "allow", "message": null, "rule_key": null, "args": null}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			original := testObj(t, orig)
			before := original.String()
			var modBefore []string
			for _, a := range tt.answers {
				if a != nil && a.Args != nil {
					modBefore = append(modBefore, a.Args.String())
				}
			}
			o := Aggregate("pre_tool_call", original, tt.answers)
			if got := outcomeText(o); got != tt.want {
				t.Errorf("outcome:\n got %s\nwant %s", got, tt.want)
			}
			if IsBlock(o) != tt.isBlock {
				t.Errorf("IsBlock = %v, want %v", IsBlock(o), tt.isBlock)
			}
			if original.String() != before {
				t.Errorf("original args modified: %s", original)
			}
			i := 0
			for _, a := range tt.answers {
				if a != nil && a.Args != nil {
					if a.Args.String() != modBefore[i] {
						t.Errorf("modify answer %d changed: %s", i, a.Args)
					}
					i++
				}
			}
		})
	}
}

func TestAggregatePreToolCallWithoutOriginalArgs(t *testing.T) {
	o := Aggregate("pre_tool_call", nil, []*Answer{answerModify(t, `{"path": "/etc"}`)})
	if got, want := outcomeText(o), `{"action": "allow", "message": null, "rule_key": null, "args": {"path": "/etc"}}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestAggregatePreLLMCall(t *testing.T) {
	tests := []struct {
		name    string
		answers []*Answer
		want    string
	}{
		{"no hooks", nil, `{"context": null}`},
		{"nothing contributed", []*Answer{nil, nil}, `{"context": null}`},
		{"one", []*Answer{nil, answerContext("Weather API is down.")}, `{"context": "Weather API is down."}`},
		{"joined with a blank line, as given", []*Answer{answerContext("a\n"), nil, answerContext(" b"), answerContext("c")},
			`{"context": "a\n\n\n b\n\nc"}`},
		{"actions ignored", []*Answer{answerBlock("x"), answerContext("c")}, `{"context": "c"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Aggregate("pre_llm_call", nil, tt.answers)
			if got := outcomeText(o); got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
			if IsBlock(o) {
				t.Error("IsBlock on pre_llm_call")
			}
		})
	}
}

func TestAggregatePreVerify(t *testing.T) {
	tests := []struct {
		name    string
		answers []*Answer
		want    string
	}{
		{"no hooks", nil, `{"action": "finish"}`},
		{"nothing contributed", []*Answer{nil}, `{"action": "finish"}`},
		{"first continue wins", []*Answer{nil, answerContinue("run tests"), answerContinue("lint")},
			`{"action": "continue", "message": "run tests"}`},
		{"other answers ignored", []*Answer{answerContext("c"), answerBlock("b")}, `{"action": "finish"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Aggregate("pre_verify", nil, tt.answers)
			if got := outcomeText(o); got != tt.want {
				t.Errorf("got %s\nwant %s", got, tt.want)
			}
			if IsBlock(o) {
				t.Error("IsBlock on pre_verify")
			}
		})
	}
}

func TestAggregateObservers(t *testing.T) {
	for _, event := range []string{"post_tool_call", "on_session_start", "transform_llm_output", "my_extra_event"} {
		o := Aggregate(event, nil, []*Answer{answerContext("c"), answerBlock("b")})
		if o != nil {
			t.Errorf("%s: outcome = %s, want nil", event, outcomeText(o))
		}
		if IsBlock(o) {
			t.Errorf("%s: IsBlock(nil) = true", event)
		}
		if got := outcomeText(o); got != "null" {
			t.Errorf("%s: text = %s, want null", event, got)
		}
	}
}

// Outcomes sit in typed --json structs; nil must stay null there.
func TestOutcomeMarshalJSON(t *testing.T) {
	type report struct {
		Outcome *Outcome `json:"outcome"`
		Parsed  *Answer  `json:"parsed"`
	}
	tests := []struct {
		r    report
		want string
	}{
		{report{}, `{"outcome":null,"parsed":null}`},
		{report{Outcome: Aggregate("pre_tool_call", nil, []*Answer{answerBlock("é")}), Parsed: answerBlock("é")},
			`{"outcome":{"action":"block","message":"é","rule_key":null,"args":null},"parsed":{"action":"block","message":"é"}}`},
		{report{Outcome: Aggregate("pre_verify", nil, nil)}, `{"outcome":{"action":"finish"},"parsed":null}`},
	}
	for _, tt := range tests {
		data, err := json.Marshal(tt.r)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tt.want {
			t.Errorf("got  %s\nwant %s", data, tt.want)
		}
	}
}
