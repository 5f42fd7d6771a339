package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// fixedNow is the clock of the test factory.
var fixedNow = time.Date(2026, 11, 29, 10, 11, 12, 345678000, time.UTC)

// cliHarness is a Factory on buffers with a HERMES_HOME in a temporary
// folder, a scripted prompter, and the real command tree to run.
type cliHarness struct {
	f            *Factory
	ios          *iostreams.IOStreams
	in, out, err *bytes.Buffer
	home         string // HERMES_HOME
	// env is what the commands see as the environment; tests may add to
	// it before a run.
	env      map[string]string
	prompter *scriptedPrompter
	// runner is the fake runner of newHookHarness; nil when hooks run as
	// real processes.
	runner *scriptedRunner
	// homeFlag: run gives the home with --home instead of HERMES_HOME.
	homeFlag bool
}

// newHarness is a user's home with an empty ~/.hermes, given through
// HERMES_HOME (as a user would), where hooks run as real processes.
func newHarness(t *testing.T) *cliHarness {
	t.Helper()
	userHome := t.TempDir()
	home := filepath.Join(userHome, ".hermes")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	h := harnessAt(t, userHome, home)
	h.env["HERMES_HOME"] = home
	return h
}

// newHookHarness is a HERMES_HOME that is the user's home itself (so the
// config's "~/hook.sh" is the executable hook.sh written there), given with
// --home, holding config cfg. No hook really runs: the scripted runner
// answers every run with exit 0 in 5 ms unless the test changes
// runner.result. The prompter fails a question that defaults to Yes.
func newHookHarness(t *testing.T, cfg string, tty bool) *cliHarness {
	t.Helper()
	home := t.TempDir()
	h := harnessAt(t, home, home)
	h.homeFlag = true
	zero := 0
	h.runner = &scriptedRunner{result: shell.Result{ExitCode: &zero, Elapsed: 5 * time.Millisecond}}
	h.f.Runner = h.runner
	h.prompter.requireDefaultNo = true
	h.ios.SetTTY(tty)
	h.write(t, "config.yaml", cfg, 0o600)
	h.write(t, "hook.sh", "#!/bin/sh\ncat >/dev/null\n", 0o755)
	return h
}

// harnessAt is the harness both constructors share: the user's home and
// HERMES_HOME are given, hooks run as real processes.
func harnessAt(t *testing.T, userHome, home string) *cliHarness {
	ios, in, out, errOut := iostreams.Test()
	h := &cliHarness{ios: ios, in: in, out: out, err: errOut, home: home,
		env: map[string]string{}, prompter: &scriptedPrompter{t: t}}
	h.f = &Factory{
		IO:       ios,
		Env:      config.MapEnv(h.env),
		Environ:  func() []string { return []string{"PATH=/usr/bin:/bin"} },
		UserHome: func() string { return userHome },
		Runner:   shell.Exec{},
		Now:      func() time.Time { return fixedNow },
		Settings: NewSettings(),
		Prompter: h.prompter,
	}
	return h
}

// write creates a file under HERMES_HOME (folders included).
func (h *cliHarness) write(t *testing.T, rel, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(h.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// run executes `hermes args...` through the command tree main builds for
// them (NewRootCmdFor) and returns the exit code HandleError gives, as main
// would. out and err then hold
// this run's output only.
func (h *cliHarness) run(args ...string) int {
	h.out.Reset()
	h.err.Reset()
	if h.homeFlag {
		args = append([]string{"--home", h.home}, args...)
	}
	root := NewRootCmdFor(h.f, args)
	return HandleError(h.ios, Execute(context.Background(), root, args))
}

// acceptAll approves every configured hook as `hooks accept --all --yes`.
func (h *cliHarness) acceptAll(t *testing.T) {
	t.Helper()
	if code := h.run("hooks", "accept", "--all", "--yes"); code != 0 {
		t.Fatalf("accept: exit %d: %s", code, h.err)
	}
}

func (h *cliHarness) allowlistPath() string {
	return filepath.Join(h.home, "shell-hooks-allowlist.json")
}

// approvals reads the allowlist file as plain JSON.
func (h *cliHarness) approvals(t *testing.T) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(h.allowlistPath())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Approvals []map[string]any `json:"approvals"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("allowlist is not JSON: %v\n%s", err, data)
	}
	return doc.Approvals
}

// entries reads the allowlist as the allowlist package does; none when
// there is no file.
func (h *cliHarness) entries(t *testing.T) []allowlist.Entry {
	t.Helper()
	l, _, err := allowlist.Open(h.home).Read()
	if err != nil {
		t.Fatal(err)
	}
	return l.Approvals
}

// parseArgs executes the command newCmd builds on a test factory, with
// runF replaced to catch the options it would run with. got is nil when
// the command stopped before runF (a flag or argument error).
func parseArgs[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cobra.Command, args ...string) (got *O, err error) {
	t.Helper()
	h := newHarness(t)
	cmd := newCmd(h.f, func(o *O) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(h.out)
	cmd.SetErr(h.err)
	err = cmd.Execute()
	return got, err
}

// parsed is parseArgs for a table of flag cases: it fails the test unless
// the command stops with an error before runF exactly when wantErr, and
// returns the options caught (nil when wantErr).
func parsed[O any](t *testing.T, newCmd func(*Factory, func(*O) error) *cobra.Command, wantErr bool, args ...string) *O {
	t.Helper()
	got, err := parseArgs(t, newCmd, args...)
	switch {
	case wantErr && (err == nil || got != nil):
		t.Fatalf("err = %v, runF called: %t; want an error before runF", err, got != nil)
	case !wantErr && err != nil:
		t.Fatal(err)
	}
	return got
}

// scriptedPrompter answers from queued values and records what it was
// asked; an unexpected question fails the test.
type scriptedPrompter struct {
	t        *testing.T
	confirms []bool
	picks    [][]int
	asked    []string // messages of every question, in order
	options  [][]string
	defaults []bool
	// requireDefaultNo makes a question that defaults to Yes an error (an
	// approval prompt must default to No).
	requireDefaultNo bool
}

func (p *scriptedPrompter) Confirm(message, help string, def bool) (bool, error) {
	p.asked = append(p.asked, message)
	p.defaults = append(p.defaults, def)
	if def && p.requireDefaultNo {
		return false, errors.New("the approval prompt must default to No")
	}
	if len(p.confirms) == 0 {
		p.t.Errorf("unexpected Confirm(%q)", message)
		return false, errors.New("no answer scripted")
	}
	a := p.confirms[0]
	p.confirms = p.confirms[1:]
	return a, nil
}

func (p *scriptedPrompter) MultiSelect(message string, options []string, description func(int) string) ([]int, error) {
	p.asked = append(p.asked, message)
	p.options = append(p.options, options)
	if len(p.picks) == 0 {
		p.t.Errorf("unexpected MultiSelect(%q, %q)", message, options)
		return nil, errors.New("no answer scripted")
	}
	a := p.picks[0]
	p.picks = p.picks[1:]
	return a, nil
}

func (p *scriptedPrompter) Select(message string, options []string) (int, error) {
	p.asked = append(p.asked, message)
	p.options = append(p.options, options)
	if len(p.picks) == 0 || len(p.picks[0]) != 1 {
		p.t.Errorf("unexpected Select(%q, %q)", message, options)
		return 0, errors.New("no answer scripted")
	}
	a := p.picks[0][0]
	p.picks = p.picks[1:]
	return a, nil
}

// scriptedRunner answers every run with the same result and records the
// requests.
type scriptedRunner struct {
	mu       sync.Mutex
	result   shell.Result
	requests []shell.Request
}

func (r *scriptedRunner) Run(ctx context.Context, req shell.Request) shell.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, req)
	return r.result
}

// withoutSGR removes SGR colour sequences.
func withoutSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
