package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// doctorRunner answers smoke runs from a table keyed by the script's base
// name, and records what it ran and how many ran at once.
type doctorRunner struct {
	answers map[string]shell.Result
	// gate, when set, holds every run until it is closed.
	gate chan struct{}

	mu          sync.Mutex
	ran         []string
	inFlight    int
	maxInFlight int
	// full is closed when inFlight first reaches fullAt.
	fullAt int
	full   chan struct{}
}

func (r *doctorRunner) Run(ctx context.Context, req shell.Request) shell.Result {
	name := filepath.Base(req.Argv[0])
	r.mu.Lock()
	r.ran = append(r.ran, name)
	r.inFlight++
	r.maxInFlight = max(r.maxInFlight, r.inFlight)
	if r.full != nil && r.inFlight == r.fullAt {
		close(r.full)
		r.full = nil
	}
	r.mu.Unlock()
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
		}
	}
	r.mu.Lock()
	r.inFlight--
	r.mu.Unlock()
	if res, ok := r.answers[name]; ok {
		return res
	}
	return exitedWith(0, "")
}

func exitedWith(code int, stdout string) shell.Result {
	return shell.Result{ExitCode: &code, Stdout: stdout, Elapsed: time.Millisecond}
}

func doctorEngine(s *hooks.Setup, r shell.Runner) *hooks.Engine {
	return &hooks.Engine{Setup: s, Runner: r, Environ: []string{"PATH=/bin"}, Cwd: s.Loc.Home, Now: time.Now}
}

// checkLine summarises a check as name:status.
func checkLines(r HookReport) string {
	var out []string
	for _, c := range r.Checks {
		out = append(out, c.Name+":"+c.Status)
	}
	return strings.Join(out, " ")
}

func TestDoctorShellChecks(t *testing.T) {
	scripts := map[string]string{}
	for _, n := range []string{"ok.sh", "quiet.sh", "chatty.sh", "odd.sh", "list.sh", "slow.sh", "nostart.sh", "exit1.sh", "exit3.sh", "new.sh", "edited.sh", "gone.sh", "agent.sh"} {
		scripts[n] = "#!/bin/sh\n# " + n + "\n"
	}
	h := newTestHome(t, `hooks:
  pre_tool_call:
    - command: "~/ok.sh"
      timeout: 5
    - command: "~/exit1.sh"
  on_session_start:
    - command: "~/quiet.sh"
    - command: "~/chatty.sh"
    - command: "~/odd.sh"
    - command: "~/list.sh"
    - command: "~/slow.sh"
      timeout: 2
    - command: "~/nostart.sh"
    - command: "~/exit3.sh"
    - command: "~/new.sh"
    - command: "~/edited.sh"
    - command: "~/gone.sh"
    - command: "~/agent.sh"
`, scripts)
	h.approveAll()
	h.writeAllowlistEntryWithoutHash("~/agent.sh", "on_session_start")
	h.write("edited.sh", "#!/bin/sh\n# edited\n", approvedMtime)
	if err := os.Remove(h.path("gone.sh")); err != nil {
		t.Fatal(err)
	}
	// new.sh is configured after approval.
	s, list := h.load()
	list.Revoke("~/new.sh")

	runner := &doctorRunner{answers: map[string]shell.Result{
		"ok.sh":      exitedWith(0, `{"action": "approve"}`),
		"exit1.sh":   exitedWith(1, `{}`),
		"chatty.sh":  exitedWith(0, "hello"),
		"odd.sh":     exitedWith(0, `{"action": "block"}`),
		"list.sh":    exitedWith(0, `[1, 2]`),
		"slow.sh":    {TimedOut: true, Err: "timed out"},
		"nostart.sh": {Err: "command not executable"},
		"exit3.sh":   withStderr(exitedWith(3, ""), "boom"),
	}}
	reports := Run(context.Background(), doctorEngine(s, runner), list, Options{Parallel: 0})

	want := []struct{ command, checks string }{
		{"~/ok.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:ok"},
		{"~/exit1.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:ok lint:warn lint:warn"},
		{"~/quiet.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:ok"},
		{"~/chatty.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:fail"},
		{"~/odd.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:ok smoke:warn"},
		{"~/list.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:ok smoke:warn"},
		{"~/slow.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:fail"},
		{"~/nostart.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:fail"},
		// Exit 3, nothing on stdout, an error on stderr: broken, not healthy.
		{"~/exit3.sh", "executable:ok approved:ok drift:ok permissions:ok guard:warn smoke:fail"},
		{"~/new.sh", "executable:ok approved:fail permissions:ok guard:warn smoke:skip"},
		{"~/edited.sh", "executable:ok approved:ok drift:fail permissions:ok guard:warn smoke:skip"},
		{"~/gone.sh", "executable:fail approved:ok drift:warn guard:warn smoke:skip"},
		{"~/agent.sh", "executable:ok approved:ok drift:info permissions:ok guard:warn smoke:ok"},
	}
	if len(reports) != len(want) {
		t.Fatalf("%d reports, want %d", len(reports), len(want))
	}
	problems := 0
	for i, w := range want {
		r := reports[i]
		if r.Kind != "shell" || r.Spec.Shown() != w.command {
			t.Errorf("report %d is %s %q, want shell %q (config order)", i, r.Kind, r.Spec.Shown(), w.command)
			continue
		}
		if got := checkLines(r); got != w.checks {
			t.Errorf("%s: checks %s\n want %s", w.command, got, w.checks)
		}
		problems += r.Problems()
	}
	if problems != 7 {
		t.Errorf("%d problems, want 7 (chatty, slow, nostart, exit3, new, edited, gone)", problems)
	}

	// Never run: the unapproved hook, the one whose script changed since its
	// pinned approval, the one whose script is gone.
	ran := map[string]bool{}
	for _, n := range runner.ran {
		ran[n] = true
	}
	for _, n := range []string{"new.sh", "edited.sh", "gone.sh"} {
		if ran[n] {
			t.Errorf("doctor ran %s", n)
		}
	}
	if !ran["agent.sh"] {
		t.Error("doctor did not smoke-run the agent-approved hook (it fires in run-event)")
	}
	if len(runner.ran) != 10 {
		t.Errorf("ran %d hooks, want 10: %v", len(runner.ran), runner.ran)
	}
}

// writeAllowlistEntryWithoutHash turns the approval of cmd into one the
// Python agent would have written: no sha256, no approved_via.
func (h *testHome) writeAllowlistEntryWithoutHash(cmd, event string) {
	h.t.Helper()
	s, _ := h.load()
	fp := allowlist.NewFingerprinter().Of(filepath.Join(h.dir, strings.TrimPrefix(cmd, "~/")))
	if _, err := s.Store.Update(func(l *allowlist.List) error {
		e := allowlist.NewEntry(event, cmd, "", fp, time.Now())
		e.ScriptSHA256 = ""
		l.Approve(e)
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
}

func withStderr(r shell.Result, stderr string) shell.Result {
	r.Stderr = stderr
	return r
}

// Smoke runs of different hooks run at the same time, never more than
// parallel at once, and the reports keep config order whatever order the
// runs end in.
func TestDoctorSmokeRunsConcurrently(t *testing.T) {
	const hooksN, parallel = 6, 3
	scripts := map[string]string{}
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  on_session_start:\n")
	for i := range hooksN {
		name := fmt.Sprintf("h%d.sh", i)
		scripts[name] = "#!/bin/sh\n# " + name + "\n"
		fmt.Fprintf(&cfg, "    - command: \"~/%s\"\n", name)
	}
	h := newTestHome(t, cfg.String(), scripts)
	h.approveAll()
	s, list := h.load()

	// Every run waits at the gate; the gate opens once parallel runs are in
	// at the same time, which a sequential doctor would never reach.
	runner := &doctorRunner{gate: make(chan struct{}), full: make(chan struct{}), fullAt: parallel}
	full := runner.full
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan []HookReport)
	go func() { done <- Run(ctx, doctorEngine(s, runner), list, Options{Parallel: parallel}) }()
	select {
	case <-full:
		close(runner.gate)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("smoke runs never ran concurrently")
	}
	reports := <-done
	if runner.maxInFlight != parallel {
		t.Errorf("at most %d runs at once, want %d", runner.maxInFlight, parallel)
	}
	for i, r := range reports {
		if want := fmt.Sprintf("~/h%d.sh", i); r.Spec.Shown() != want {
			t.Errorf("report %d is %q, want %q", i, r.Spec.Shown(), want)
		}
	}
}

// parallel 1 is sequential: one run at a time.
func TestDoctorParallelOne(t *testing.T) {
	h := newTestHome(t, "hooks:\n  on_session_start:\n    - command: \"~/a.sh\"\n    - command: \"~/b.sh\"\n    - command: \"~/c.sh\"\n",
		map[string]string{"a.sh": hookV1, "b.sh": hookV1, "c.sh": hookV1})
	h.approveAll()
	s, list := h.load()
	runner := &doctorRunner{}
	Run(context.Background(), doctorEngine(s, runner), list, Options{Parallel: 1})
	if runner.maxInFlight != 1 || strings.Join(runner.ran, " ") != "a.sh b.sh c.sh" {
		t.Errorf("max in flight %d, ran %v; want 1, a b c", runner.maxInFlight, runner.ran)
	}
}

func TestPermissionCheck(t *testing.T) {
	dir := t.TempDir()
	s, _ := newTestHome(t, "", nil).load()
	e := doctorEngine(s, &doctorRunner{})
	mk := func(sub string, dirMode, fileMode os.FileMode) string {
		d := filepath.Join(dir, sub)
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(d, "hook.sh")
		if err := os.WriteFile(p, []byte(hookV1), 0o755); err != nil {
			t.Fatal(err)
		}
		// Chmod, not the create mode: the umask must not decide the test.
		if err := os.Chmod(p, fileMode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, dirMode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name             string
		dirMode, fileMod os.FileMode
		want             string
	}{
		{"private", 0o755, 0o755, CheckOK},
		{"world-writable script", 0o755, 0o757, CheckFail},
		{"world-writable folder", 0o777, 0o755, CheckFail},
		{"sticky world-writable folder", 0o777 | os.ModeSticky, 0o755, CheckOK},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mk(fmt.Sprint(i), tt.dirMode, tt.fileMod)
			c := permissionCheck(e, e.Inspect(hookspec.Spec{Event: "on_session_start", Command: p}, nil))
			if c.Name != "permissions" || c.Status != tt.want {
				t.Errorf("got %+v, want status %s", c, tt.want)
			}
		})
	}
	// A symlinked script is judged by the file it points to.
	target := mk("target", 0o755, 0o777)
	link := filepath.Join(dir, "link.sh")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if c := permissionCheck(e, e.Inspect(hookspec.Spec{Event: "on_session_start", Command: link}, nil)); c.Status != CheckFail {
		t.Errorf("symlink to a world-writable script: %+v", c)
	}
	// hooks_strict_modes: false makes the finding information only.
	e.Config.Settings.StrictModes = false
	if c := permissionCheck(e, e.Inspect(hookspec.Spec{Event: "on_session_start", Command: target}, nil)); c.Status != CheckInfo || !strings.Contains(c.Message, "writable by others") {
		t.Errorf("strict modes off: %+v; want info naming the problem", c)
	}
}
