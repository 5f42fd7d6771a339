package cases

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// scriptRunner answers by the hook's last argv word and keeps the stdin
// each hook was given.
type scriptRunner struct {
	answers map[string]shell.Result
	stdin   map[string]string
}

func (r *scriptRunner) Run(_ context.Context, req shell.Request) shell.Result {
	role := req.Argv[len(req.Argv)-1]
	r.stdin[role] = string(req.Stdin)
	if res, ok := r.answers[role]; ok {
		return res
	}
	zero := 0
	return shell.Result{ExitCode: &zero}
}

func answer(stdout string) shell.Result {
	zero := 0
	return shell.Result{ExitCode: &zero, Stdout: stdout, Elapsed: time.Millisecond}
}

const policyConfig = `hooks:
  pre_tool_call:
    - command: "~/hook.sh guard"
      matcher: terminal
    - command: "~/hook.sh rewrite"
      matcher: terminal
    - command: "~/hook.sh files"
      matcher: write_file
  pre_llm_call:
    - command: "~/hook.sh context"
    - command: "~/hook.sh more-context"
`

func policyEngine(t *testing.T, r *scriptRunner) *hooks.Engine {
	t.Helper()
	home := t.TempDir()
	for name, text := range map[string]string{"config.yaml": policyConfig, "hook.sh": "#!/bin/sh\n"} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	s, err := hooks.Load(config.Request{HomeFlag: home, UserHome: home, Env: config.MapEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	r.stdin = map[string]string{}
	return &hooks.Engine{Setup: s, Runner: r, Environ: []string{"PATH=/bin"}, Cwd: home, Now: time.Now}
}

func mustParse(t *testing.T, text string) []Case {
	t.Helper()
	cs, err := Parse("cases.yaml", []byte(text), catalog.NewCatalogue(nil))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestRun(t *testing.T) {
	r := &scriptRunner{answers: map[string]shell.Result{
		"guard":        answer(`{"action": "block", "message": "guard: refusing rm -rf"}`),
		"rewrite":      answer(`{"action": "modify", "args": {"command": "ls -la"}}`),
		"context":      answer(`{"context": "Working directory: /repo"}`),
		"more-context": answer(`{"context": "Be careful."}`),
	}}
	e := policyEngine(t, r)
	cs := mustParse(t, `
- name: block passes
  event: pre_tool_call
  payload: {tool_name: terminal, args: {command: "rm -rf /"}}
  expect: {action: block, message_contains: refusing, hooks_fired: 2}
- name: block expected allow
  event: pre_tool_call
  payload: {tool_name: terminal}
  expect: {action: allow, message_contains: nothing-like-it}
- name: matcher leaves nothing
  event: pre_tool_call
  payload: {tool_name: read_file, args: {path: /etc/hosts}}
  expect: {action: allow, args: null, hooks_fired: 0}
- name: context joined
  event: pre_llm_call
  expect: {context_contains: "/repo\n\nBe careful", hooks_fired: 2}
`)
	want := []struct {
		failures []string
		got      string
	}{
		{nil, `{"action":"block","message":"guard: refusing rm -rf","context":null,"args":{"command":"ls -la"},"hooks_fired":2}`},
		{[]string{`action: expected "allow", got "block"`,
			`message: expected one containing "nothing-like-it", got "guard: refusing rm -rf"`},
			`{"action":"block","message":"guard: refusing rm -rf","context":null,"args":{"command":"ls -la"},"hooks_fired":2}`},
		{nil, `{"action":"allow","message":null,"context":null,"args":null,"hooks_fired":0}`},
		{nil, `{"action":null,"message":null,"context":"Working directory: /repo\n\nBe careful.","args":null,"hooks_fired":2}`},
	}
	for i, c := range cs {
		res, err := Run(context.Background(), e, c, hooks.Selection{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Failures, want[i].failures) {
			t.Errorf("%s: failures %q, want %q", c.Name, res.Failures, want[i].failures)
		}
		if res.Passed() != (want[i].failures == nil) {
			t.Errorf("%s: Passed() = %v", c.Name, res.Passed())
		}
		if got := jsonOf(t, res.Got); got != want[i].got {
			t.Errorf("%s: got\n %s\nwant\n %s", c.Name, got, want[i].got)
		}
	}
	// The case's payload is merged over the synthetic one: the agent's
	// default fields are there, the case's args win.
	stdin := r.stdin["guard"]
	for _, part := range []string{`"tool_input": {"command": "echo hello"}`, `"session_id": "test-session"`} {
		if !strings.Contains(stdin, part) {
			t.Errorf("stdin of the last pre_tool_call case lacks %s: %s", part, stdin)
		}
	}
}

func TestRunSelection(t *testing.T) {
	r := &scriptRunner{answers: map[string]shell.Result{
		"guard": answer(`{"action": "block", "message": "no"}`),
	}}
	e := policyEngine(t, r)
	c := mustParse(t, "- {name: a, event: pre_tool_call, payload: {tool_name: terminal}, expect: {action: allow, hooks_fired: 1}}")[0]
	res, err := Run(context.Background(), e, c, hooks.Selection{Skip: []string{"~/hook.sh guard"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Errorf("with guard skipped: %q", res.Failures)
	}
	want := []string{"~/hook.sh guard: skipped (--skip)", "~/hook.sh rewrite: exit 0; answered nothing",
		"~/hook.sh files: skipped (matcher)"}
	if got := res.HookLines(); !slices.Equal(got, want) {
		t.Errorf("hook lines %q, want %q", got, want)
	}
}

func TestRunInterrupted(t *testing.T) {
	e := policyEngine(t, &scriptRunner{})
	c := mustParse(t, "- {name: a, event: pre_llm_call, expect: {hooks_fired: 2}}")[0]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, e, c, hooks.Selection{}); err == nil {
		t.Error("an interrupted case reported no error")
	}
}

// Each outcome shows as exactly one action; modify is an allowed call
// whose arguments were rewritten.
func TestObserveAction(t *testing.T) {
	args := pyjson.NewObject().Set("command", "ls -la")
	msg := "why"
	tests := []struct {
		outcome *hooks.Outcome
		want    string
	}{
		{&hooks.Outcome{Event: "pre_tool_call", Action: "allow"}, "allow"},
		{&hooks.Outcome{Event: "pre_tool_call", Action: "allow", Args: args}, "modify"},
		{&hooks.Outcome{Event: "pre_tool_call", Action: "approve", Args: args}, "approve"},
		{&hooks.Outcome{Event: "pre_tool_call", Action: "block", Message: &msg, Args: args}, "block"},
		{&hooks.Outcome{Event: "pre_verify", Action: "finish"}, "finish"},
		{&hooks.Outcome{Event: "pre_llm_call"}, "<nil>"},
		{nil, "<nil>"},
	}
	for _, tt := range tests {
		g := Observe(&hooks.Dispatch{Outcome: tt.outcome})
		got := "<nil>"
		if g.Action != nil {
			got = *g.Action
		}
		if got != tt.want {
			t.Errorf("%+v: action %s, want %s", tt.outcome, got, tt.want)
		}
	}
}

func TestCheckArgs(t *testing.T) {
	obj := func(s string) *pyjson.Object {
		o, err := pyjson.DecodeObject([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	tests := []struct {
		expect, got *pyjson.Object
		equal       bool
	}{
		{obj(`{"a": 1, "b": [1, {"c": null}]}`), obj(`{"b": [1, {"c": null}], "a": 1}`), true},
		{obj(`{"n": 1}`), obj(`{"n": 1.0}`), true},
		{obj(`{"n": 100}`), obj(`{"n": 1e2}`), true},
		{obj(`{"n": 1}`), obj(`{"n": "1"}`), false},
		{obj(`{"n": true}`), obj(`{"n": 1}`), false},
		{obj(`{"a": [1, 2]}`), obj(`{"a": [2, 1]}`), false},
		{obj(`{"a": 1}`), obj(`{"a": 1, "b": 2}`), false},
		{obj(`{}`), nil, false},
		{nil, nil, true},
	}
	for _, tt := range tests {
		x := Expect{Args: tt.expect, HasArgs: true}
		failures := x.Check(Got{Args: tt.got})
		if (len(failures) == 0) != tt.equal {
			t.Errorf("args %s vs %s: failures %q, want equal=%v", jsonText(tt.expect), jsonText(tt.got), failures, tt.equal)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
