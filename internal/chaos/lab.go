package chaos

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// SlowTimeout caps the timeout of the slow fault: the stand-in never
// ends, and how long the agent waits does not change how it judges a
// timeout, so the grid need not wait a hook's whole timeout.
const SlowTimeout = time.Second

// missingDir is a folder that does not exist: the interpreter fault's
// programs are named inside it.
const missingDir = "/nonexistent/hermes-chaos"

// Lab is a throwaway folder where the faults are made.
type Lab struct {
	e   *hooks.Engine
	dir string
	n   atomic.Int64
}

// New makes a lab for the hooks of e, under the system's temporary folder.
func New(e *hooks.Engine) (*Lab, error) {
	dir, err := os.MkdirTemp("", "hermes-chaos-")
	if err != nil {
		return nil, fmt.Errorf("cannot make a throwaway folder for --chaos: %w", err)
	}
	return &Lab{e: e, dir: dir}, nil
}

// Close removes the lab and everything in it.
func (l *Lab) Close() error {
	// An unreadable copy's folder stays removable; the copy itself is 000.
	return os.RemoveAll(l.dir)
}

// Trial is one fault made for one hook: what the agent would run. NA, when
// set, says why the fault does not apply (and nothing is run).
type Trial struct {
	Fault   Fault
	NA      string
	Argv    []string
	Env     []string
	Timeout time.Duration
	// FailClosed: the hook's fail_closed, which the agent reads.
	FailClosed bool
}

// hookArgv is the argv the agent runs for h (the guard's, when
// protected), the guard's part before COMMAND (nil when not protected) and
// COMMAND.
func (l *Lab) hookArgv(h hooks.ShellHook) (argv, prefix, inner []string, err error) {
	argv, err = shell.Argv(h.Command, l.e.UserHome)
	if err != nil {
		return nil, nil, nil, err
	}
	if h.Guard == nil {
		return argv, nil, argv, nil
	}
	for i, a := range argv {
		if a == "--" {
			return argv, argv[:i+1], argv[i+1:], nil
		}
	}
	return nil, nil, nil, fmt.Errorf("the guard command %q has no \"--\"", h.Command)
}

// Wire is the payload the hooks of event read, from the fields given.
func (l *Lab) Wire(event string, fields *pyjson.Object) []byte {
	ev, _ := l.e.Catalogue.Lookup(event)
	return catalog.WireBytes(l.e.WireFor(event, l.e.Payload(ev, fields, false)))
}

// env is the hook's environment as the agent gives it, with the guard
// told not to log; extra replaces variables of the same name.
func (l *Lab) env(h hooks.ShellHook, fields *pyjson.Object, extra ...string) []string {
	env := shell.HookEnv(l.e.Environ, l.e.Loc.Home, h.Event, hooks.ToolName(fields), "")
	env = append(env, guard.NoAuditEnv+"=1")
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		out := env[:0]
		for _, x := range env {
			if !strings.HasPrefix(x, name+"=") {
				out = append(out, x)
			}
		}
		env = append(out, kv)
	}
	return env
}

// path makes a new name in the lab.
func (l *Lab) path(name string) string {
	return filepath.Join(l.dir, fmt.Sprintf("%d-%s", l.n.Add(1), name))
}

// standIn writes a stand-in script with body and returns its path.
func (l *Lab) standIn(name, body string) (string, error) {
	p := l.path(name)
	return p, os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o700)
}

// approveIn writes a throwaway HERMES_HOME whose allowlist approves argv
// (a protected hook's guard command) for event with the sha256 of judged
// (the content the guard will compare; nil: the file the guard judges, as
// it is), and returns the HERMES_HOME variable that points the guard at
// it.
func (l *Lab) approveIn(event string, argv []string, judged []byte) (string, error) {
	home := l.path("home")
	if err := os.Mkdir(home, 0o700); err != nil {
		return "", err
	}
	inv, err := guard.Parse(argv)
	if err != nil {
		return "", err
	}
	words, noScript := guard.Judged(inv)
	fp := allowlist.Fingerprint{Err: allowlist.ErrNoScript}
	if !noScript {
		script, _ := shell.ResolveScript(words)
		fp = allowlist.FingerprintNow(script)
		if judged != nil {
			fp = fingerprintOf(script, judged)
		}
	}
	e := allowlist.NewEntry(event, shell.Join(argv), allowlist.ViaProtect, fp, time.Now())
	if _, err := allowlist.Open(home).Update(func(list *allowlist.List) error { list.Approve(e); return nil }); err != nil {
		return "", err
	}
	return "HERMES_HOME=" + home, nil
}

// fingerprintOf is the fingerprint content would have at path (no mtime:
// the approval pins the sha256 alone).
func fingerprintOf(path string, content []byte) allowlist.Fingerprint {
	sum := sha256.Sum256(content)
	return allowlist.Fingerprint{Path: path, SHA256: hex.EncodeToString(sum[:])}
}

// interpreters are the programs a script's "#!" line names (for
// "#!/usr/bin/env prog", env and prog), by the name PATH finds them under.
func interpreters(script string) map[string]string {
	out := map[string]string{}
	interp, arg, ok := code.Shebang(script)
	if !ok {
		return out
	}
	out[filepath.Base(interp)] = interp
	if filepath.Base(interp) == "env" {
		for _, w := range strings.Fields(arg) {
			if strings.HasPrefix(w, "-") {
				continue
			}
			if p, err := exec.LookPath(w); err == nil {
				out[filepath.Base(w)] = p
			}
			break
		}
	}
	return out
}
