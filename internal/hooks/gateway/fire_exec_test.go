package gateway

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

func TestFireExecutableHandler(t *testing.T) {
	tests := []struct {
		name, script     string
		status, result   string
		errContains      string
		stdout, stderr   string
		checkEnvironment bool
	}{
		{name: "json answer", script: "#!/bin/sh\necho '{\"seen\": true}'\n", status: StatusOK, result: `{"seen":true}`,
			stdout: "{\"seen\": true}\n"},
		{name: "text answer", script: "#!/bin/sh\necho 'not json'\n", status: StatusOK, result: `"not json"`},
		{name: "silent", script: "#!/bin/sh\nexit 0\n", status: StatusOK, result: "null"},
		{name: "fails", script: "#!/bin/sh\necho oops >&2\nexit 3\n", status: StatusError, result: "null",
			errContains: "exited with status 3: oops", stderr: "oops\n"},
		{name: "environment", script: "#!/bin/sh\nprintf '%s %s %s' \"$HERMES_HOOK\" \"$HERMES_HOOK_EVENT\" \"$HERMES_HOOK_SESSION_ID\"\n",
			status: StatusOK, result: `"1 agent:start s-9"`},
		{name: "hangs", script: "#!/bin/sh\nexec sleep 1000\n", status: StatusTimeout, result: "null",
			errContains: "timed out after 1s"},
		{name: "bad interpreter", script: "#!/no/such/interpreter\n", status: StatusError, result: "null",
			errContains: "interpreter /no/such/interpreter not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFolder(t, root, "exe", folder{yaml: hookYAML, exe: tt.script})
			// No Python needed for executable handlers.
			r := &Runner{Home: t.TempDir(), Timeout: time.Second, Env: []string{"PATH=/usr/bin:/bin"}}
			results, err := r.Fire(context.Background(), "agent:start",
				mustObject(t, `{"session_id": "s-9"}`), Discover(root, known))
			if err != nil {
				t.Fatalf("Fire: %v", err)
			}
			got := results[0]
			if got.Status != tt.status || string(got.Result) != tt.result || !strings.Contains(got.Error, tt.errContains) {
				t.Errorf("status %q result %s error %q; want %q %s error containing %q",
					got.Status, got.Result, got.Error, tt.status, tt.result, tt.errContains)
			}
			if tt.stdout != "" && got.Stdout != tt.stdout {
				t.Errorf("stdout = %q, want %q", got.Stdout, tt.stdout)
			}
			if tt.stderr != "" && got.Stderr != tt.stderr {
				t.Errorf("stderr = %q, want %q", got.Stderr, tt.stderr)
			}
		})
	}
}

// Without python3, handler.py hooks report gateway hooks unavailable and
// executable handlers still run.
func TestFireWithoutPython(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "a-py", folder{yaml: hookYAML, py: okPy})
	writeFolder(t, root, "b-exe", folder{yaml: hookYAML, exe: "#!/bin/sh\necho 5\n"})
	r := &Runner{Home: t.TempDir(), Exec: shell.Exec{}}
	results, err := r.Fire(context.Background(), "agent:start", nil, Discover(root, known))
	if !errors.Is(err, ErrPythonUnavailable) {
		t.Errorf("Fire error = %v, want ErrPythonUnavailable", err)
	}
	if results[0].Status != StatusError || !strings.Contains(results[0].Error, "gateway hooks unavailable: python3 not found") {
		t.Errorf("py hook: %+v", results[0])
	}
	if results[1].Status != StatusOK || string(results[1].Result) != "5" {
		t.Errorf("exe hook: %+v", results[1])
	}
}

// fakeRunner records requests, so tests can see what Fire asks for without
// running anything.
type fakeRunner struct{ reqs []shell.Request }

func (f *fakeRunner) Run(ctx context.Context, req shell.Request) shell.Result {
	f.reqs = append(f.reqs, req)
	code := 0
	return shell.Result{ExitCode: &code}
}

func TestFireRequest(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "a", folder{yaml: hookYAML, py: okPy})
	fake := &fakeRunner{}
	r := &Runner{Python: "/opt/py/bin/python3", Home: "/home/h", Exec: fake, Env: []string{"HERMES_HOOK_EVENT=outer", "KEEP=1"}}
	results, err := r.Fire(context.Background(), "agent:start", nil, Discover(root, known))
	if err != nil {
		t.Fatal(err)
	}
	if len(fake.reqs) != 1 {
		t.Fatalf("%d runs, want one runner process", len(fake.reqs))
	}
	req := fake.reqs[0]
	if req.Argv[0] != "/opt/py/bin/python3" || req.Argv[len(req.Argv)-1] != "--run" || req.Timeout != DefaultTimeout {
		t.Errorf("argv %q timeout %v", req.Argv, req.Timeout)
	}
	env := strings.Join(req.Env, "\n")
	for _, want := range []string{"KEEP=1", "HERMES_HOME=/home/h", "HERMES_HOOK_EVENT=agent:start", "HERMES_HOOK=1"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q: %q", want, req.Env)
		}
	}
	if strings.Contains(env, "outer") {
		t.Errorf("env keeps the outer event: %q", req.Env)
	}
	if !strings.HasPrefix(string(req.Stdin), `{"event_type":"agent:start","context":{},"handlers":[{"name":"a","path":`) {
		t.Errorf("runner stdin = %s", req.Stdin)
	}
	// The fake answered nothing: the handler reports the runner's failure.
	if results[0].Status != StatusError || !strings.Contains(results[0].Error, "exited without reporting") {
		t.Errorf("result %+v", results[0])
	}
}
