package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

func TestAppendAudit(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	at := time.Date(2026, 11, 29, 10, 11, 12, 345678000, time.UTC)
	code := 2
	ctx := "ünicode <ok>"
	shellRec := audit.Record{Time: at, Event: "pre_tool_call", Kind: "shell", Command: "~/guard.sh --strict",
		SHA256: "ab12", Result: shell.Result{ExitCode: &code, Elapsed: 1234567 * time.Microsecond,
			Stdout: "never logged", Stderr: "never logged"},
		Answer: &Answer{Action: ActionBlock, Message: "no"}}
	gatewayRec := audit.Record{Time: at, Event: "agent:start", Kind: "gateway", Name: "notify",
		Error: "boom", Elapsed: 0.25, Answer: &Answer{Context: &ctx}}
	timedOut := audit.Record{Time: at, Event: "on_session_start", Kind: "shell", Command: "slow",
		Result: shell.Result{TimedOut: true, Elapsed: time.Second}}

	for _, r := range []audit.Record{shellRec, gatewayRec, timedOut} {
		if err := audit.Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(audit.Path(home))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"time":"2026-11-29T10:11:12.345678Z","event":"pre_tool_call","kind":"shell","command":"~/guard.sh --strict","sha256":"ab12","exit_code":2,"timed_out":false,"error":null,"elapsed_seconds":1.235,"parsed":{"action":"block","message":"no"}}`,
		`{"time":"2026-11-29T10:11:12.345678Z","event":"agent:start","kind":"gateway","name":"notify","sha256":null,"exit_code":null,"timed_out":false,"error":"boom","elapsed_seconds":0.25,"parsed":{"context":"ünicode <ok>"}}`,
		`{"time":"2026-11-29T10:11:12.345678Z","event":"on_session_start","kind":"shell","command":"slow","sha256":null,"exit_code":null,"timed_out":true,"error":null,"elapsed_seconds":1,"parsed":null}`,
	}
	if got := string(data); got != strings.Join(want, "\n")+"\n" {
		t.Errorf("audit log:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if _, err := pyjson.DecodeObject([]byte(line)); err != nil {
			t.Errorf("line is not a JSON object: %s: %v", line, err)
		}
	}

	fi, err := os.Stat(audit.Path(home))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("audit log mode %o, want 600", perm)
	}
	di, err := os.Stat(filepath.Dir(audit.Path(home)))
	if err != nil {
		t.Fatal(err)
	}
	if perm := di.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("logs folder mode %o: others can read the audit log's folder", perm)
	}
}

func TestAppendAuditAppends(t *testing.T) {
	// An existing log is appended to, never rewritten.
	home := t.TempDir()
	path := audit.Path(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{\"old\":1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := audit.Append(home, audit.Record{Time: time.Now(), Event: "x", Kind: "shell", Command: "c"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "{\"old\":1}\n{\"time\":") {
		t.Errorf("log not appended to: %s", data)
	}
}

func TestAppendAuditFailure(t *testing.T) {
	// logs is a file: the folder cannot be made; the error names the log.
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "logs"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := audit.Append(home, audit.Record{Time: time.Now(), Event: "x", Kind: "shell", Command: "c"})
	if err == nil || !strings.Contains(err.Error(), "audit log") {
		t.Fatalf("err = %v, want an audit log error", err)
	}
}

func TestDispatchAuditFailureIsAWarning(t *testing.T) {
	e := testEngine(t, "hooks:\n  on_session_start:\n    - command: \"~/hook.sh start\"\n", &fakeRunner{})
	approveCommands(t, e, "~/hook.sh start")
	if err := os.WriteFile(filepath.Join(e.Loc.Home, "logs"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := e.DispatchShell(context.Background(), "on_session_start", pyjson.NewObject(), false, (&consentLog{}).consent)
	if err != nil {
		t.Fatalf("a failing audit log stopped the firing: %v", err)
	}
	if !d.Runs[0].Fired() || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "audit log") {
		t.Errorf("fired %v, warnings %q; want fired with one audit log warning", d.Runs[0].Fired(), d.Warnings)
	}
}

func TestDispatchAuditOff(t *testing.T) {
	e := testEngine(t, "hooks_audit_log: false\nhooks:\n  on_session_start:\n    - command: \"~/hook.sh start\"\n", &fakeRunner{})
	approveCommands(t, e, "~/hook.sh start")
	d, err := e.DispatchShell(context.Background(), "on_session_start", pyjson.NewObject(), false, (&consentLog{}).consent)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Runs[0].Fired() {
		t.Fatal("hook did not fire")
	}
	if _, err := os.Stat(filepath.Dir(audit.Path(e.Loc.Home))); !os.IsNotExist(err) {
		t.Errorf("hooks_audit_log: false, yet the logs folder exists (stat: %v)", err)
	}
}
