package hooks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

func exitedResult(code int, stdout, stderr string) shell.Result {
	return shell.Result{ExitCode: &code, Stdout: stdout, Stderr: stderr}
}

// parsedText is the answer's wire shape as text, "null" for nothing.
func parsedText(a *Answer) string {
	return string(pyjson.Marshal(a.Wire(), pyjson.Options{}))
}

func TestEvaluate(t *testing.T) {
	long := strings.Repeat("é", 450) // 900 bytes: the cut must count characters
	tests := []struct {
		name         string
		in           EvalInput
		want         string // parsedText of the answer
		wantWarnings int
	}{
		// Step 1: spawn errors and timeouts.
		{"spawn error contributes nothing",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: shell.Result{Err: "command not found"}},
			`null`, 0},
		{"spawn error fail-closed blocks",
			EvalInput{Event: "pre_tool_call", Command: "./guard.sh", Blocking: true, FailClosed: true,
				Result: shell.Result{Err: "command not found"}},
			`{"action": "block", "message": "hook ./guard.sh failed closed: command not found"}`, 0},
		{"timeout contributes nothing",
			EvalInput{Event: "pre_tool_call", Blocking: true, Timeout: 5, Result: shell.Result{TimedOut: true}},
			`null`, 0},
		{"timeout fail-closed blocks with the configured timeout",
			EvalInput{Event: "pre_tool_call", Command: "guard --strict", Blocking: true, FailClosed: true, Timeout: 5,
				Result: shell.Result{TimedOut: true, Stdout: `{"action": "approve"}`}},
			`{"action": "block", "message": "hook guard --strict failed closed: timed out after 5s"}`, 0},
		{"fail-closed means nothing off pre_tool_call",
			EvalInput{Event: "post_tool_call", FailClosed: true, Result: shell.Result{Err: "command not executable"}},
			`null`, 0},
		{"timeout ignores what was printed",
			EvalInput{Event: "pre_llm_call", Result: shell.Result{TimedOut: true, Stdout: `{"context": "x"}`}},
			`null`, 0},

		// Step 2: exit 2 on pre_tool_call.
		{"exit 2 takes the stdout block directive",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(2, `{"action": "block", "message": "no rm"}`, "stderr text")},
			`{"action": "block", "message": "no rm"}`, 0},
		{"exit 2 takes a decision block directive",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(2, `{"decision": "block", "reason": "policy"}`, "stderr text")},
			`{"action": "block", "message": "policy"}`, 0},
		{"exit 2 directive with blank message keeps the default",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(2, `{"action": "block", "message": "  "}`, "stderr text")},
			`{"action": "block", "message": "Blocked by shell hook."}`, 0},
		{"exit 2 without directive quotes trimmed stderr",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(2, "", "\n  dangerous command \n")},
			`{"action": "block", "message": "dangerous command"}`, 0},
		{"exit 2 cuts stderr at 400 characters",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(2, "not json", " "+long)},
			`{"action": "block", "message": "` + strings.Repeat("é", 400) + `"}`, 0},
		{"exit 2 with nothing printed",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(2, "", " \n")},
			`{"action": "block", "message": "Blocked by shell hook."}`, 0},
		{"exit 2 ignores a modify",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(2, `{"action": "modify", "args": {"command": "ls"}}`, "")},
			`{"action": "block", "message": "Blocked by shell hook."}`, 0},
		{"exit 2 ignores an approve",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(2, `{"action": "approve"}`, "why")},
			`{"action": "block", "message": "why"}`, 0},
		{"exit 2 off pre_tool_call is an ordinary failure",
			EvalInput{Event: "pre_llm_call", Result: exitedResult(2, `{"context": "still read"}`, "boom")},
			`{"context": "still read"}`, 1},

		// Step 3: other non-zero exits warn and stdout is still read.
		{"exit 1 with a block JSON blocks",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(1, `{"action": "block", "message": "m"}`, "")},
			`{"action": "block", "message": "m"}`, 1},
		{"exit 1 with nothing printed warns only",
			EvalInput{Event: "pre_tool_call", Blocking: true, FailClosed: true, Result: exitedResult(1, "", "oops")},
			`null`, 1},

		// Step 4: reading stdout.
		{"empty stdout", EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(0, " \n\t", "")}, `null`, 0},
		{"not JSON warns", EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(0, "hello", "")}, `null`, 1},
		{"JSON list is nothing", EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(0, `[]`, "")}, `null`, 0},
		{"JSON string is nothing", EvalInput{Event: "pre_llm_call", Result: exitedResult(0, `"context"`, "")}, `null`, 0},
		{"empty object is nothing", EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(0, `{}`, "")}, `null`, 0},

		// Step 5: fail-closed and unparseable stdout.
		{"fail-closed not JSON blocks",
			EvalInput{Event: "pre_tool_call", Command: "g", Blocking: true, FailClosed: true, Result: exitedResult(0, "hello", "")},
			`{"action": "block", "message": "hook g failed closed: unparseable stdout (expected a JSON object)"}`, 1},
		{"fail-closed list blocks",
			EvalInput{Event: "pre_tool_call", Command: "g", Blocking: true, FailClosed: true, Result: exitedResult(0, `[]`, "")},
			`{"action": "block", "message": "hook g failed closed: unparseable stdout (expected a JSON object)"}`, 0},
		{"fail-closed number blocks",
			EvalInput{Event: "pre_tool_call", Command: "g", Blocking: true, FailClosed: true, Result: exitedResult(0, `42`, "")},
			`{"action": "block", "message": "hook g failed closed: unparseable stdout (expected a JSON object)"}`, 0},
		{"fail-closed empty object passes",
			EvalInput{Event: "pre_tool_call", Blocking: true, FailClosed: true, Result: exitedResult(0, `{}`, "")},
			`null`, 0},
		{"fail-closed empty stdout passes",
			EvalInput{Event: "pre_tool_call", Blocking: true, FailClosed: true, Result: exitedResult(0, "", "")},
			`null`, 0},
		{"fail-closed ignored when not blocking",
			EvalInput{Event: "post_tool_call", FailClosed: true, Result: exitedResult(0, "hello", "")},
			`null`, 1},

		// SPEC §14: Python's strip set, approve strings stripped, signals.
		{"stdout framed by Python-only white space is read",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(0, "\x1c\u00a0\u3000{\"action\": \"block\", \"message\": \"m\"}\u2028\x1f\u0085", "")},
			`{"action": "block", "message": "m"}`, 0},
		{"stderr block message stripped of \\x1c-\\x1f and Unicode spaces",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(2, "", "\x1e\u2003no\u2009way\u205f\x1c")},
			"{\"action\": \"block\", \"message\": \"no\u2009way\"}", 0},
		{"zero-width space is not white space",
			EvalInput{Event: "pre_tool_call", Blocking: true, Result: exitedResult(2, "", "\u200b")},
			"{\"action\": \"block\", \"message\": \"\u200b\"}", 0},
		{"a message of Unicode spaces only is blank",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(0, `{"action": "block", "message": "\u3000\u001c"}`, "")},
			`{"action": "block", "message": "Blocked by shell hook."}`, 0},
		{"approve message and rule_key are stripped",
			EvalInput{Event: "pre_tool_call", Blocking: true,
				Result: exitedResult(0, `{"action": "approve", "message": "\u00a0 ok \n", "rule_key": "\u001f rk\u3000"}`, "")},
			`{"action": "approve", "message": "ok", "rule_key": "rk"}`, 0},
		{"pre_verify message stripped of Unicode spaces",
			EvalInput{Event: "pre_verify", Result: exitedResult(0, `{"action": "\u2000Continue\u001d", "message": "\u0085again\u2029"}`, "")},
			`{"action": "continue", "message": "again"}`, 0},
		{"context of Unicode spaces only is nothing",
			EvalInput{Event: "pre_llm_call", Result: exitedResult(0, `{"context": "\u2028\u001e"}`, "")},
			`null`, 0},
		{"killed by a signal after printing a block still blocks",
			EvalInput{Event: "pre_tool_call", Blocking: true, FailClosed: true, Result: exitedResult(-9, `{"action": "block", "message": "no"}`, "")},
			`{"action": "block", "message": "no"}`, 1},
		{"killed by a signal with nothing printed is not fail-closed",
			EvalInput{Event: "pre_tool_call", Blocking: true, FailClosed: true, Result: exitedResult(-15, "", "")},
			`null`, 1},

		{"no exit code and no error reads stdout",
			EvalInput{Event: "pre_llm_call", Result: shell.Result{Stdout: `{"context": "c"}`}},
			`{"context": "c"}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := Evaluate(tt.in)
			if got := parsedText(ev.Answer); got != tt.want {
				t.Errorf("answer = %s\nwant     %s", got, tt.want)
			}
			if len(ev.Warnings) != tt.wantWarnings {
				t.Errorf("warnings = %q, want %d", ev.Warnings, tt.wantWarnings)
			}
		})
	}
}

func TestEvaluateWarningsNameTheHook(t *testing.T) {
	ev := Evaluate(EvalInput{Event: "post_tool_call", Command: "./audit.sh", Result: exitedResult(3, "nope", "")})
	want := []string{"exited with code 3", "not valid JSON"}
	if len(ev.Warnings) != len(want) {
		t.Fatalf("warnings = %q, want %d", ev.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.Contains(ev.Warnings[i], "./audit.sh") || !strings.Contains(ev.Warnings[i], w) {
			t.Errorf("warning %d = %q, want it to name ./audit.sh and say %q", i, ev.Warnings[i], w)
		}
	}
}

// Output that is not JSON: the warning says what was expected and shows
// how the output starts, escaped and cut.
func TestEvaluateNotJSONShowsTheOutput(t *testing.T) {
	long := "nope \x1b[2J\u202e" + strings.Repeat("x", 200)
	for _, tc := range []struct{ stdout, want string }{
		{"nothing", `hook ./a.sh printed stdout that is not valid JSON (Expecting value: line 1 column 1 (char 0)): expected a JSON object, or nothing; it starts "nothing"; it is ignored`},
		{"nul", `not valid JSON (Expecting value: line 1 column 1 (char 0)): expected a JSON object, or nothing; it starts "nul"`},
		{long, `it starts "nope \x1b[2J\u202e` + strings.Repeat("x", 70) + `"…; it is ignored`},
	} {
		ev := Evaluate(EvalInput{Event: "post_tool_call", Command: "./a.sh", Result: exitedResult(0, tc.stdout, "")})
		if len(ev.Warnings) != 1 || !strings.Contains(ev.Warnings[0], tc.want) {
			t.Errorf("stdout %q: warnings = %q, want one containing %q", tc.stdout, ev.Warnings, tc.want)
		}
	}
}

// TestParseAnswer covers §7 step 4 per event, with exit 0.
func TestParseAnswer(t *testing.T) {
	tests := []struct {
		event, stdout, want string
	}{
		// pre_tool_call blocks.
		{"pre_tool_call", `{"action": "block", "message": "m", "reason": "r"}`, `{"action": "block", "message": "m"}`},
		{"pre_tool_call", `{"action": "block", "reason": "r"}`, `{"action": "block", "message": "r"}`},
		{"pre_tool_call", `{"action": "block", "message": "", "reason": "r"}`, `{"action": "block", "message": "r"}`},
		{"pre_tool_call", `{"action": "block", "message": null, "reason": "r"}`, `{"action": "block", "message": "r"}`},
		{"pre_tool_call", `{"action": "block", "message": "  m  "}`, `{"action": "block", "message": "  m  "}`},
		{"pre_tool_call", `{"action": "block"}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		{"pre_tool_call", `{"action": "block", "message": "   "}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		{"pre_tool_call", `{"action": "block", "message": 7, "reason": "r"}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		{"pre_tool_call", `{"action": "block", "message": ["m"]}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		{"pre_tool_call", `{"decision": "block", "reason": "r", "message": "m"}`, `{"action": "block", "message": "r"}`},
		{"pre_tool_call", `{"decision": "block", "message": "m"}`, `{"action": "block", "message": "m"}`},
		{"pre_tool_call", `{"decision": "block", "reason": false}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		{"pre_tool_call", `{"action": "approve", "decision": "block", "reason": "r"}`, `{"action": "block", "message": "r"}`},
		{"pre_tool_call", `{"action": "modify", "args": {"a": 1}, "decision": "block"}`, `{"action": "block", "message": "Blocked by shell hook."}`},
		// Case-sensitive values.
		{"pre_tool_call", `{"action": "Block", "message": "m"}`, `null`},
		{"pre_tool_call", `{"decision": "BLOCK", "reason": "r"}`, `null`},
		{"pre_tool_call", `{"action": " block", "message": "m"}`, `null`},
		{"pre_tool_call", `{"action": "Approve"}`, `null`},
		{"pre_tool_call", `{"action": "Modify", "args": {"a": 1}}`, `null`},
		// Modify.
		{"pre_tool_call", `{"action": "modify", "args": {"command": "ls", "n": [1]}}`, `{"action": "modify", "args": {"command": "ls", "n": [1]}}`},
		{"pre_tool_call", `{"action": "modify", "args": {}}`, `{"action": "modify", "args": {}}`},
		{"pre_tool_call", `{"decision": "modify", "tool_input": {"command": "ls"}}`, `{"action": "modify", "args": {"command": "ls"}}`},
		{"pre_tool_call", `{"action": "modify", "args": "ls"}`, `null`},
		{"pre_tool_call", `{"action": "modify", "args": null}`, `null`},
		{"pre_tool_call", `{"action": "modify", "args": [1]}`, `null`},
		{"pre_tool_call", `{"action": "modify", "tool_input": {"command": "ls"}}`, `null`},
		{"pre_tool_call", `{"decision": "modify", "args": {"command": "ls"}}`, `null`},
		{"pre_tool_call", `{"decision": "modify", "tool_input": "ls"}`, `null`},
		{"pre_tool_call", `{"action": "modify", "args": "x", "decision": "modify", "tool_input": {"b": 2}}`, `{"action": "modify", "args": {"b": 2}}`},
		{"pre_tool_call", `{"action": "approve", "decision": "modify", "tool_input": {"b": 2}}`, `{"action": "modify", "args": {"b": 2}}`},
		// Approve.
		{"pre_tool_call", `{"action": "approve"}`, `{"action": "approve"}`},
		{"pre_tool_call", `{"action": "approve", "message": "ok", "rule_key": "k1"}`, `{"action": "approve", "message": "ok", "rule_key": "k1"}`},
		{"pre_tool_call", `{"action": "approve", "message": " ", "rule_key": 3}`, `{"action": "approve"}`},
		{"pre_tool_call", `{"action": "approve", "rule_key": "k"}`, `{"action": "approve", "rule_key": "k"}`},
		{"pre_tool_call", `{"action": "approve", "reason": "r"}`, `{"action": "approve"}`},
		{"pre_tool_call", `{"decision": "approve", "message": "ok"}`, `null`},
		// Nothing else means anything on pre_tool_call, context included.
		{"pre_tool_call", `{"context": "extra context"}`, `null`},
		{"pre_tool_call", `{"action": "allow"}`, `null`},
		{"pre_tool_call", `{"action": "continue", "message": "m"}`, `null`},

		// pre_verify.
		{"pre_verify", `{"action": "continue", "message": "run the tests"}`, `{"action": "continue", "message": "run the tests"}`},
		{"pre_verify", `{"action": "block", "message": "run the tests"}`, `{"action": "continue", "message": "run the tests"}`},
		{"pre_verify", `{"action": "  CONTINUE\n", "message": "  m \n"}`, `{"action": "continue", "message": "m"}`},
		{"pre_verify", `{"action": "Block", "reason": "r"}`, `{"action": "continue", "message": "r"}`},
		{"pre_verify", `{"decision": "block", "reason": "r"}`, `{"action": "continue", "message": "r"}`},
		{"pre_verify", `{"action": "", "decision": "continue", "message": "m"}`, `{"action": "continue", "message": "m"}`},
		{"pre_verify", `{"message": "", "reason": "r", "action": "continue"}`, `{"action": "continue", "message": "r"}`},
		{"pre_verify", `{"action": "continue", "message": "   "}`, `null`},
		{"pre_verify", `{"action": "continue"}`, `null`},
		{"pre_verify", `{"action": "continue", "message": 5}`, `null`},
		{"pre_verify", `{"action": "finish", "message": "m"}`, `null`},
		{"pre_verify", `{"action": "approve", "message": "m"}`, `null`},
		{"pre_verify", `{"action": 1, "message": "m"}`, `null`},
		{"pre_verify", `{"context": "c"}`, `null`},

		// Every other event: context.
		{"pre_llm_call", `{"context": "Weather API is down."}`, `{"context": "Weather API is down."}`},
		{"pre_llm_call", `{"context": "  padded\n"}`, `{"context": "  padded\n"}`},
		{"pre_llm_call", `{"context": "   "}`, `null`},
		{"pre_llm_call", `{"context": 3}`, `null`},
		{"pre_llm_call", `{"context": ["a"]}`, `null`},
		{"pre_llm_call", `{"action": "block", "message": "m"}`, `null`},
		{"post_tool_call", `{"context": "noted"}`, `{"context": "noted"}`},
		{"on_session_start", `{"context": "hi", "action": "block"}`, `{"context": "hi"}`},
		{"my_extra_event", `{"context": "x"}`, `{"context": "x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.event+" "+tt.stdout, func(t *testing.T) {
			in := EvalInput{Event: tt.event, Blocking: tt.event == "pre_tool_call", Result: exitedResult(0, tt.stdout, "")}
			ev := Evaluate(in)
			if got := parsedText(ev.Answer); got != tt.want {
				t.Errorf("answer = %s\nwant     %s", got, tt.want)
			}
			if len(ev.Warnings) != 0 {
				t.Errorf("unexpected warnings %q", ev.Warnings)
			}
		})
	}
}

func TestAnswerWire(t *testing.T) {
	ctx := "c"
	tests := []struct {
		a    *Answer
		want string
	}{
		{nil, `null`},
		{&Answer{Action: ActionBlock, Message: "m"}, `{"action": "block", "message": "m"}`},
		{&Answer{Action: ActionContinue, Message: "m"}, `{"action": "continue", "message": "m"}`},
		{&Answer{Action: ActionModify, Args: pyjson.NewObject().Set("x", 1)}, `{"action": "modify", "args": {"x": 1}}`},
		{&Answer{Action: ActionApprove}, `{"action": "approve"}`},
		{&Answer{Action: ActionApprove, RuleKey: "k"}, `{"action": "approve", "rule_key": "k"}`},
		{&Answer{Context: &ctx}, `{"context": "c"}`},
	}
	for _, tt := range tests {
		if got := parsedText(tt.a); got != tt.want {
			t.Errorf("Wire() = %s, want %s", got, tt.want)
		}
	}
	data, err := (&Answer{Action: ActionBlock, Message: "é"}).MarshalJSON()
	if err != nil || string(data) != `{"action":"block","message":"é"}` {
		t.Errorf("MarshalJSON = %s, %v", data, err)
	}
}

func TestEvaluateModifyArgsKeepOrder(t *testing.T) {
	ev := Evaluate(EvalInput{Event: "pre_tool_call", Blocking: true,
		Result: exitedResult(0, `{"action": "modify", "args": {"z": 1, "a": 2, "m": 3}}`, "")})
	if ev.Answer == nil || !slices.Equal(ev.Answer.Args.Keys(), []string{"z", "a", "m"}) {
		t.Fatalf("answer = %+v, want args keys z, a, m", ev.Answer)
	}
}

// FuzzEvaluate: whatever a hook prints and however it exits, Evaluate never
// panics, and its answer keeps the invariants the aggregation relies on.
func FuzzEvaluate(f *testing.F) {
	f.Add(`{"action": "block", "message": "no"}`, "", 0, uint8(0), false)
	f.Add(`{"decision": "modify", "tool_input": {"a": 1}}`, "err", 2, uint8(0), true)
	f.Add(`{"action": "continue", "message": " m "}`, "", 1, uint8(1), false)
	f.Add(`{"context": "c"}`, "", 0, uint8(2), false)
	f.Add("not json", "é", 2, uint8(0), true)
	f.Fuzz(func(t *testing.T, stdout, stderr string, code int, event uint8, failClosed bool) {
		name := []string{"pre_tool_call", "pre_verify", "pre_llm_call", "post_tool_call"}[event%4]
		in := EvalInput{Event: name, Command: "hook", Blocking: name == "pre_tool_call",
			FailClosed: failClosed, Timeout: 60, Result: exitedResult(code, stdout, stderr)}
		a := Evaluate(in).Answer
		if in.Blocking && code == 2 && (a == nil || a.Action != ActionBlock) {
			t.Fatalf("exit 2 on pre_tool_call gave %s, want a block", parsedText(a))
		}
		if a == nil {
			return
		}
		switch a.Action {
		case ActionBlock, ActionContinue:
			if a.Message == "" {
				t.Fatalf("%s without message", a.Action)
			}
		case ActionModify:
			if a.Args == nil {
				t.Fatal("modify without args")
			}
		case "":
			if a.Context == nil || name == "pre_tool_call" || name == "pre_verify" {
				t.Fatalf("context answer %v on %s", a.Context, name)
			}
		}
		if _, err := pyjson.DecodeObject([]byte(parsedText(a))); err != nil {
			t.Fatalf("wire shape %s is not an object: %v", parsedText(a), err)
		}
	})
}

// TestEvaluateRealHook runs real scripts: the hook reads the exact wire
// bytes on stdin, and its exit code, stdout and stderr are judged as the
// agent would.
func TestEvaluateRealHook(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "stdin.json")
	script := filepath.Join(dir, "guard.sh")
	body := "#!/bin/sh\ncat > \"$1\"\necho '  rm -rf is not allowed here  ' >&2\nexit 2\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	fields := testObj(t, `{"tool_name": "terminal", "args": {"command": "rm -rf ~"}, "session_id": "s", "note": "é"}`)
	stdin := catalog.WireBytes(catalog.Wire("pre_tool_call", fields, dir, "default"))
	res := shell.Exec{}.Run(context.Background(), shell.Request{Argv: []string{script, got}, Stdin: stdin, Timeout: time.Minute})
	ev := Evaluate(EvalInput{Event: "pre_tool_call", Command: script, Blocking: true, Timeout: 60, Result: res})
	if want := `{"action": "block", "message": "rm -rf is not allowed here"}`; parsedText(ev.Answer) != want {
		t.Errorf("answer = %s, want %s (result %+v)", parsedText(ev.Answer), want, res)
	}
	read, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read, stdin) {
		t.Errorf("hook read %s\nwant      %s", read, stdin)
	}

	missing := filepath.Join(dir, "missing.sh")
	res = shell.Exec{}.Run(context.Background(), shell.Request{Argv: []string{missing}, Timeout: time.Minute})
	ev = Evaluate(EvalInput{Event: "pre_tool_call", Command: missing, Blocking: true, FailClosed: true, Result: res})
	if want := "hook " + missing + " failed closed: " + res.Err; ev.Answer == nil || ev.Answer.Message != want || res.Err == "" {
		t.Errorf("answer = %s, want a block %q", parsedText(ev.Answer), want)
	}
}
