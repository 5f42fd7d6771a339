package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// consentLog is a Consent that answers from a table and remembers whom it
// was asked about.
type consentLog struct {
	asked   []string
	answers map[string]bool
	via     string
	err     error
}

func (c *consentLog) consent(h ShellHook) (Grant, error) {
	c.asked = append(c.asked, h.Command)
	return Grant{OK: c.answers[h.Command], Via: c.via}, c.err
}

func approveCommands(t *testing.T, e *Engine, commands ...string) {
	t.Helper()
	var hs []ShellHook
	for _, h := range e.ShellHooks(nil) {
		if slices.Contains(commands, h.Command) {
			hs = append(hs, h)
		}
	}
	if _, _, err := e.Approve(hs, allowlist.ViaAccept, e.Now()); err != nil {
		t.Fatal(err)
	}
}

func skipReasons(d *Dispatch) []string {
	var out []string
	for _, r := range d.Runs {
		out = append(out, r.Hook.Command+": "+r.SkipReason)
	}
	return out
}

func auditLines(t *testing.T, e *Engine) []string {
	t.Helper()
	data, err := os.ReadFile(audit.Path(e.Loc.Home))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

const dispatchConfig = `hooks:
  pre_tool_call:
    - command: "~/hook.sh approved"
    - command: "~/hook.sh yes"
    - command: "~/hook.sh no"
    - command: "~/hook.sh other-tool"
      matcher: read_file
`

func TestDispatchConsent(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, dispatchConfig, runner)
	approveCommands(t, e, "~/hook.sh approved")
	c := &consentLog{answers: map[string]bool{"~/hook.sh yes": true}, via: allowlist.ViaEnv}

	d, err := e.DispatchShell(context.Background(), "pre_tool_call",
		testObj(t, `{"tool_name": "terminal", "args": {}}`), false, c.consent)
	if err != nil {
		t.Fatal(err)
	}
	// Consent is asked only about untrusted hooks the matcher lets through.
	if want := []string{"~/hook.sh yes", "~/hook.sh no"}; !slices.Equal(c.asked, want) {
		t.Errorf("consent asked about %q, want %q", c.asked, want)
	}
	want := []string{"~/hook.sh approved: ", "~/hook.sh yes: ", "~/hook.sh no: " + SkipNotApproved,
		"~/hook.sh other-tool: " + SkipMatcher}
	if got := skipReasons(d); !slices.Equal(got, want) {
		t.Errorf("runs = %q, want %q", got, want)
	}
	if got := runner.ran(); !slices.Equal(got, []string{"approved", "yes"}) {
		t.Errorf("ran %q, want approved and yes", got)
	}
	// The approval given now is recorded, with how it was given.
	list, _, err := e.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	if entry, ok := list.Find("pre_tool_call", "~/hook.sh yes"); !ok || entry.ApprovedVia != allowlist.ViaEnv || entry.ScriptSHA256 == "" {
		t.Errorf("approval of the consented hook = %+v (found %v), want approved_via env with a sha256", entry, ok)
	}
	if _, ok := list.Find("pre_tool_call", "~/hook.sh no"); ok {
		t.Error("a refused hook was approved")
	}
	if _, ok := list.Find("pre_tool_call", "~/hook.sh other-tool"); ok {
		t.Error("a hook skipped by its matcher was approved")
	}
	// One audit line per fired hook.
	if lines := auditLines(t, e); len(lines) != 2 {
		t.Errorf("audit log has %d lines, want 2: %q", len(lines), lines)
	}
}

func TestDispatchSafeMode(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, dispatchConfig, runner)
	approveCommands(t, e, "~/hook.sh approved")
	c := &consentLog{answers: map[string]bool{"~/hook.sh yes": true}}

	d, err := e.DispatchShell(context.Background(), "pre_tool_call", testObj(t, `{"tool_name": "read_file"}`), true, c.consent)
	if err != nil {
		t.Fatal(err)
	}
	if len(runner.requests) != 0 || len(c.asked) != 0 {
		t.Errorf("safe mode ran %q and asked about %q", runner.ran(), c.asked)
	}
	for _, r := range d.Runs {
		if r.SkipReason != SkipSafeMode {
			t.Errorf("%s: skip reason %q, want %q", r.Hook.Command, r.SkipReason, SkipSafeMode)
		}
	}
	if len(d.Runs) != 4 {
		t.Errorf("%d runs listed, want every configured hook (4)", len(d.Runs))
	}
	if d.Outcome == nil || d.Outcome.Action != OutcomeAllow {
		t.Errorf("outcome = %+v, want allow", d.Outcome)
	}
	if lines := auditLines(t, e); lines != nil {
		t.Errorf("safe mode wrote the audit log: %q", lines)
	}
}

func TestDispatchConsentError(t *testing.T) {
	runner := &fakeRunner{}
	e := testEngine(t, dispatchConfig, runner)
	stop := errors.New("interrupted at the prompt")
	c := &consentLog{err: stop}
	_, err := e.DispatchShell(context.Background(), "pre_tool_call", testObj(t, `{"tool_name": "terminal"}`), false, c.consent)
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the consent's error", err)
	}
	if len(runner.requests) != 0 || len(c.asked) != 1 {
		t.Errorf("after the consent error: ran %q, asked %q", runner.ran(), c.asked)
	}
}

func TestDispatchInterrupted(t *testing.T) {
	e := testEngine(t, dispatchConfig, &fakeRunner{})
	approveCommands(t, e, "~/hook.sh approved")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.DispatchShell(ctx, "pre_tool_call", testObj(t, `{"tool_name": "terminal"}`), false,
		(&consentLog{}).consent)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestDispatchPinning(t *testing.T) {
	for _, pin := range []bool{true, false} {
		t.Run(map[bool]string{true: "pinned", false: "unpinned"}[pin], func(t *testing.T) {
			cfg := "hooks:\n  on_session_start:\n    - command: \"~/hook.sh start\"\n"
			if !pin {
				cfg = "hooks_pin_scripts: false\n" + cfg
			}
			runner := &fakeRunner{}
			e := testEngine(t, cfg, runner)
			approveCommands(t, e, "~/hook.sh start")
			script := filepath.Join(e.UserHome, "hook.sh")
			if err := os.WriteFile(script, []byte("#!/bin/sh\necho changed\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			e.Fingerprints = allowlist.NewFingerprinter()
			c := &consentLog{}
			d, err := e.DispatchShell(context.Background(), "on_session_start", pyjson.NewObject(), false, c.consent)
			if err != nil {
				t.Fatal(err)
			}
			if pin {
				if got := d.Runs[0].SkipReason; !strings.HasPrefix(got, SkipModified+" (") || len(runner.requests) != 0 || len(c.asked) != 1 {
					t.Errorf("skip %q, ran %q, asked %q; want skipped as %q after asking", got, runner.ran(), c.asked, SkipModified)
				}
			} else if !d.Runs[0].Fired() || len(c.asked) != 0 {
				t.Errorf("unpinned: skip %q, asked %q; want fired without asking", d.Runs[0].SkipReason, c.asked)
			}
			if d.Outcome != nil {
				t.Errorf("observer outcome = %+v, want nil", d.Outcome)
			}
		})
	}
}

func TestDispatchOutcome(t *testing.T) {
	runner := &fakeRunner{answers: map[string]shell.Result{
		"approved": exited(0, `{"action": "modify", "args": {"command": "ls -la", "x": 1}}`, ""),
		"yes":      exited(2, "", "no rm here\n"),
		"no":       exited(0, `{"action": "modify", "args": {"x": 2}}`, ""),
	}}
	e := testEngine(t, dispatchConfig, runner)
	c := &consentLog{answers: map[string]bool{"~/hook.sh approved": true, "~/hook.sh yes": true, "~/hook.sh no": true}}
	d, err := e.DispatchShell(context.Background(), "pre_tool_call",
		testObj(t, `{"tool_name": "terminal", "args": {"command": "rm -rf /", "cwd": "/"}}`), false, c.consent)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"action": "block", "message": "no rm here", "rule_key": null, "args": {"command": "ls -la", "cwd": "/", "x": 2}}`
	if got := string(pyjson.Marshal(d.Outcome.Object(), pyjson.Options{})); got != want {
		t.Errorf("outcome:\n got %s\nwant %s", got, want)
	}
	if !d.Blocked() {
		t.Error("Blocked() = false for a block")
	}
	// The wire sent is the fields given, once for every hook.
	for _, r := range runner.requests {
		if !strings.Contains(string(r.Stdin), `"tool_input": {"command": "rm -rf /", "cwd": "/"}`) {
			t.Errorf("stdin = %s", r.Stdin)
		}
	}
}

// A fail-closed guard that pinning keeps from running blocks the call (it
// could not run); the same guard left out by --skip, or never approved,
// blocks nothing.
func TestDispatchFailClosedGuardKeptFromRunning(t *testing.T) {
	const cfg = `hooks:
  pre_tool_call:
    - command: "~/hook.sh guard"
      fail_closed: true
`
	runner := &fakeRunner{}
	e := testEngine(t, cfg, runner)
	payload := testObj(t, `{"tool_name": "terminal", "args": {}}`)
	never := &consentLog{}

	d, err := e.DispatchShell(context.Background(), "pre_tool_call", payload, false, never.consent)
	if err != nil {
		t.Fatal(err)
	}
	if d.Blocked() {
		t.Errorf("a never-approved guard blocked: %+v", d.Outcome)
	}

	approveCommands(t, e, "~/hook.sh guard")
	if err := os.WriteFile(filepath.Join(e.Loc.Home, "hook.sh"), []byte("#!/bin/sh\necho edited\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err = e.DispatchShell(context.Background(), "pre_tool_call", payload, false, never.consent)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Blocked() || d.Outcome.Message == nil || !strings.HasPrefix(*d.Outcome.Message, "hook ~/hook.sh guard failed closed: modified since approval (") {
		t.Errorf("an edited fail-closed guard: outcome %+v, want a block saying it failed closed", d.Outcome)
	}
	if len(runner.ran()) != 0 {
		t.Errorf("the edited guard ran: %q", runner.ran())
	}

	d, err = e.DispatchShellWith(context.Background(), "pre_tool_call", payload,
		DispatchOptions{Consent: never.consent, Selection: Selection{Skip: []string{"~/hook.sh guard"}}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Blocked() {
		t.Errorf("a guard left out by --skip blocked: %+v", d.Outcome)
	}
}
