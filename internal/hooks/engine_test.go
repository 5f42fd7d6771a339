package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// fakeRunner records every request and answers from a table keyed by the
// last argv word (the scripts of these tests take their role as argument).
type fakeRunner struct {
	mu       sync.Mutex
	requests []shell.Request
	answers  map[string]shell.Result
}

func (f *fakeRunner) Run(ctx context.Context, req shell.Request) shell.Result {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	res, ok := f.answers[req.Argv[len(req.Argv)-1]]
	if !ok {
		zero := 0
		res = shell.Result{ExitCode: &zero}
	}
	return res
}

// ran are the last argv words of the requests, in order.
func (f *fakeRunner) ran() []string {
	var out []string
	for _, r := range f.requests {
		out = append(out, r.Argv[len(r.Argv)-1])
	}
	return out
}

func exited(code int, stdout, stderr string) shell.Result {
	return shell.Result{ExitCode: &code, Stdout: stdout, Stderr: stderr, Elapsed: 12 * time.Millisecond}
}

// testEngine writes config (and an executable hook.sh) under a fresh
// HERMES_HOME and returns an engine on it that runs hooks with runner.
func testEngine(t *testing.T, cfg string, runner shell.Runner) *Engine {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "hook.sh"), []byte("#!/bin/sh\ncat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Load(config.Request{HomeFlag: home, UserHome: home, Env: config.MapEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics()) > 0 {
		t.Fatalf("test config has diagnostics: %v", s.Diagnostics())
	}
	now := time.Date(2026, 11, 29, 10, 11, 12, 0, time.UTC)
	return &Engine{Setup: s, Runner: runner, Environ: []string{"PATH=/bin", "HERMES_HOOK_TOOL_NAME=stale"},
		Cwd: "/work", Now: func() time.Time { return now }}
}

func TestEnginePayload(t *testing.T) {
	e := testEngine(t, "hooks: {}\n", &fakeRunner{})
	ev, _ := e.Catalogue.Lookup("pre_tool_call")
	given := testObj(t, `{"args": {"command": "ls"}, "extra_field": 1}`)

	tests := []struct {
		name      string
		given     *pyjson.Object
		synthetic bool
		want      string
	}{
		{"synthetic base, given wins, new keys appended", given, true,
			`{"tool_name": "terminal", "args": {"command": "ls"}, "task_id": "test-task", "session_id": "test-session", "tool_call_id": "test-call", "turn_id": "test-turn", "api_request_id": "test-api-request", "extra_field": 1}`},
		{"as given", given, false, `{"args": {"command": "ls"}, "extra_field": 1}`},
		{"none given: synthetic", nil, false,
			`{"tool_name": "terminal", "args": {"command": "echo hello"}, "task_id": "test-task", "session_id": "test-session", "tool_call_id": "test-call", "turn_id": "test-turn", "api_request_id": "test-api-request"}`},
		{"wire shape is normalised", testObj(t, `{"hook_event_name": "x", "tool_name": "patch", "tool_input": {"p": 1}, "session_id": "s", "cwd": "/c", "profile": "p", "extra": {"k": "v"}}`), false,
			`{"tool_name": "patch", "args": {"p": 1}, "session_id": "s", "k": "v"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(pyjson.Marshal(e.Payload(ev, tt.given, tt.synthetic), pyjson.Options{}))
			if got != tt.want {
				t.Errorf("Payload:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
	if got := string(pyjson.Marshal(given, pyjson.Options{})); got != `{"args": {"command": "ls"}, "extra_field": 1}` {
		t.Errorf("Payload modified its input: %s", got)
	}
}

func TestRunShellRequest(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, `hooks:
  pre_tool_call:
    - command: "~/hook.sh --strict guard"
      timeout: 7
`, runner)
	hs := e.ShellHooks(nil)
	fields := testObj(t, `{"tool_name": "patch", "args": {"path": "a"}, "session_id": "s-1", "task_id": "t"}`)
	wire := e.WireFor("pre_tool_call", fields)
	run := e.RunShell(context.Background(), hs[0], wire)

	if len(runner.requests) != 1 {
		t.Fatalf("runner called %d times, want 1", len(runner.requests))
	}
	req := runner.requests[0]
	wantArgv := []string{filepath.Join(e.UserHome, "hook.sh"), "--strict", "guard"}
	if !slices.Equal(req.Argv, wantArgv) {
		t.Errorf("argv = %q, want %q", req.Argv, wantArgv)
	}
	wantStdin := `{"hook_event_name": "pre_tool_call", "tool_name": "patch", "tool_input": {"path": "a"}, "session_id": "s-1", "cwd": "/work", "profile": "default", "extra": {"task_id": "t"}}`
	if string(req.Stdin) != wantStdin {
		t.Errorf("stdin:\n got %s\nwant %s", req.Stdin, wantStdin)
	}
	if req.Timeout != 7*time.Second {
		t.Errorf("timeout = %s, want 7s", req.Timeout)
	}
	if req.MaxAnswer != shell.MaxAnswer {
		t.Errorf("MaxAnswer = %d, want the whole answer read, up to %d", req.MaxAnswer, shell.MaxAnswer)
	}
	for _, kv := range []string{"PATH=/bin", "HERMES_HOME=" + e.Loc.Home, "HERMES_HOOK_EVENT=pre_tool_call",
		"HERMES_HOOK_TOOL_NAME=patch", "HERMES_HOOK_SESSION_ID=s-1", "HERMES_HOOK=1"} {
		if !slices.Contains(req.Env, kv) {
			t.Errorf("env lacks %s: %q", kv, req.Env)
		}
	}
	if slices.Contains(req.Env, "HERMES_HOOK_TOOL_NAME=stale") {
		t.Errorf("env keeps the inherited tool name: %q", req.Env)
	}
	if !run.Fired() || run.Eval.Answer != nil {
		t.Errorf("run = %+v, want fired with no answer", run)
	}
}

// TestRunShellJudgesABigAnswerWhole: a block padded past the 1 MiB that
// is kept blocks, and the spool that held it for judging is released.
func TestRunShellJudgesABigAnswerWhole(t *testing.T) {
	e := testEngine(t, "hooks:\n  pre_tool_call:\n    - command: \"~/big.sh\"\n", shell.Exec{})
	big := `#!/bin/sh
printf '{"action": "block", "message": "big", "pad": "'
head -c 2097152 /dev/zero | tr '\0' x
printf '"}'
`
	if err := os.WriteFile(filepath.Join(e.UserHome, "big.sh"), []byte(big), 0o755); err != nil {
		t.Fatal(err)
	}
	hs := e.ShellHooks(nil)
	run := e.RunShell(context.Background(), hs[0], e.WireFor("pre_tool_call", testObj(t, `{}`)))
	if !run.Result.StdoutTruncated || len(run.Result.Stdout) != shell.MaxCapture {
		t.Errorf("stdout kept: %d bytes, truncated %v; want the first MiB", len(run.Result.Stdout), run.Result.StdoutTruncated)
	}
	if a := run.Eval.Answer; a == nil || a.Action != ActionBlock || a.Message != "big" {
		t.Errorf("answer %+v (warnings %q), want the hook's block", a, run.Eval.Warnings)
	}
	if run.Result.Answer != nil {
		t.Error("the spool is still held after judging")
	}
}

func TestRunShellUnparseableCommand(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, `hooks:
  pre_tool_call:
    - command: "~/hook.sh 'unbalanced"
      fail_closed: true
`, runner)
	hs := e.ShellHooks(nil)
	run := e.RunShell(context.Background(), hs[0], e.WireFor("pre_tool_call", pyjson.NewObject()))
	if len(runner.requests) != 0 {
		t.Fatalf("a command that cannot be parsed was run: %q", runner.requests[0].Argv)
	}
	if !strings.Contains(run.Result.Err, "cannot be parsed") {
		t.Errorf("error = %q, want it to say the command cannot be parsed", run.Result.Err)
	}
	// Fail-closed: a hook that cannot even start blocks.
	if a := run.Eval.Answer; a == nil || a.Action != ActionBlock || !strings.Contains(a.Message, "failed closed") {
		t.Errorf("answer = %+v, want a fail-closed block", a)
	}
}

func TestSelected(t *testing.T) {
	e := testEngine(t, `hooks:
  pre_tool_call:
    - command: "~/hook.sh edit"
      matcher: "terminal|patch"
    - command: "~/hook.sh read"
      matcher: read_file
    - command: "~/hook.sh any"
  on_session_start:
    - command: "~/hook.sh start"
`, &fakeRunner{})
	hs := e.ShellHooks(nil)
	tests := []struct {
		event, forTool string
		want           []string
	}{
		{"pre_tool_call", "", []string{"~/hook.sh edit", "~/hook.sh read", "~/hook.sh any"}},
		{"pre_tool_call", "patch", []string{"~/hook.sh edit", "~/hook.sh any"}},
		{"pre_tool_call", "patch2", []string{"~/hook.sh any"}},
		{"on_session_start", "", []string{"~/hook.sh start"}},
		// --for-tool filters only tool events; others run as without it (SPEC §14).
		{"on_session_start", "terminal", []string{"~/hook.sh start"}},
		{"pre_tool_call", "write_file", []string{"~/hook.sh any"}},
	}
	for _, tt := range tests {
		var got []string
		for _, h := range e.Selected(hs, tt.event, tt.forTool) {
			got = append(got, h.Command)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Selected(%s, %q) = %q, want %q", tt.event, tt.forTool, got, tt.want)
		}
	}
}
