//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/chaos"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// chaosHome is one home doctor --chaos is proved on: the seed's guard or
// the Claude corpus's guards, in one of their forms.
type chaosHome struct {
	name      string
	root, cwd string
	env       []string
}

// seedHome is a copy of examples/home, approved; form "bare" sets
// fail_closed: false, "fail-closed" keeps the seed's fail_closed: true,
// "protected" protects it with --fail-closed.
func seedHome(t *testing.T, hermes, form string) chaosHome {
	t.Helper()
	root := t.TempDir()
	os.Chmod(root, 0o755)
	hh := filepath.Join(root, ".hermes")
	if out, err := exec.Command("cp", "-R", "../../examples/home", hh).CombinedOutput(); err != nil {
		t.Fatalf("copying the seed: %v\n%s", err, out)
	}
	h := chaosHome{name: "seed/" + form, root: root, cwd: root,
		env: []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + root, "HERMES_HOME=" + hh, "LC_ALL=C.UTF-8"}}
	if form == "bare" {
		cfg := filepath.Join(hh, "config.yaml")
		b, _ := os.ReadFile(cfg)
		os.WriteFile(cfg, bytes.Replace(b, []byte("fail_closed: true"), []byte("fail_closed: false"), 1), 0o600)
	}
	h.hermes(t, hermes, "hooks", "accept", "--all", "--yes")
	if form == "protected" {
		h.hermes(t, hermes, "hooks", "protect", "--all", "--fail-closed")
	}
	return h
}

// corpusHome is the Claude corpus imported (protected, in the Claude Code
// dialect) and approved; form "fail-closed" protects every pre_tool_call
// guard with --fail-closed too.
func corpusHome(t *testing.T, hermes, form string) chaosHome {
	t.Helper()
	root := t.TempDir()
	os.Chmod(root, 0o755)
	app := filepath.Join(root, "app")
	hh := filepath.Join(root, "home", ".hermes")
	os.MkdirAll(hh, 0o700)
	if out, err := exec.Command("cp", "-a", "../../testdata/claude-hooks/project", app).CombinedOutput(); err != nil {
		t.Fatalf("copying the corpus: %v\n%s", err, out)
	}
	h := chaosHome{name: "claude/" + form, root: filepath.Join(root, "home"), cwd: app,
		env: []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + filepath.Join(root, "home"), "HERMES_HOME=" + hh, "LC_ALL=C.UTF-8"}}
	h.hermes(t, hermes, "hooks", "import", "claude")
	h.hermes(t, hermes, "hooks", "accept", "--all", "--yes")
	if form == "fail-closed" {
		h.hermes(t, hermes, "hooks", "protect", "--all", "--fail-closed")
	}
	return h
}

func (h chaosHome) hermes(t *testing.T, bin string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Dir = h.env, h.cwd
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: hermes %s: %v\n%s", h.name, strings.Join(args, " "), err, out)
	}
}

// engine loads the home as hermes does, with the real runner.
func (h chaosHome) engine(t *testing.T) *hooks.Engine {
	t.Helper()
	vars := map[string]string{}
	for _, kv := range h.env {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	env := config.Env(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	s, err := hooks.LoadWithAllowlist(config.Request{Env: env, UserHome: vars["HOME"]})
	if err != nil {
		t.Fatal(err)
	}
	return &hooks.Engine{Setup: s, Runner: shell.Exec{}, Environ: h.env, Cwd: h.cwd}
}

// agentRequest is a trial as the agent's runner takes it.
func agentRequest(event string, failClosed bool, tr chaos.Trial, wire []byte) map[string]any {
	env := map[string]string{}
	for _, kv := range tr.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return map[string]any{"argv": tr.Argv, "payload": string(wire), "timeout": tr.Timeout.Seconds(),
		"event": event, "fail_closed": failClosed, "env": env}
}

// agentCells runs trials with the agent's own runner (Python: Popen,
// communicate, killpg on timeout; fail_closed as the agent reads it), in
// one batch, and returns how it judged each run, with its raw result.
func agentCells(dir string, env []string, reqs []map[string]any) ([]chaos.Cell, []string, error) {
	runner, _ := filepath.Abs("../hermes-guard/testdata/agent_runner.py")
	body, _ := json.Marshal(map[string]any{"batch": reqs})
	cmd := exec.Command("python3", runner)
	cmd.Env, cmd.Dir, cmd.Stdin = env, dir, bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("agent runner: %v\n%s", err, &stderr)
	}
	var rs []json.RawMessage
	if err := json.Unmarshal(out, &rs); err != nil || len(rs) != len(reqs) {
		return nil, nil, fmt.Errorf("agent runner printed %d results for %d requests: %v", len(rs), len(reqs), err)
	}
	cells := make([]chaos.Cell, len(rs))
	raw := make([]string, len(rs))
	for i, r := range rs {
		var res struct {
			Answer *struct{ Action string } `json:"answer"`
		}
		if err := json.Unmarshal(r, &res); err != nil {
			return nil, nil, err
		}
		cells[i], raw[i] = chaos.Allow, string(r)
		if res.Answer != nil && res.Answer.Action == "block" {
			cells[i] = chaos.Block
		}
	}
	return cells, raw, nil
}

// TestChaosAgreesWithTheAgent is SPEC §25's proof of doctor --chaos: for
// the seed's guard and the Claude corpus's guards, bare, fail-closed and
// protected, every cell of the grid (the engine's judgement of the run
// under the fault) equals what the agent's own runner gives when it runs
// the same argv, environment and timeout. One subtest per fault.
func TestChaosAgreesWithTheAgent(t *testing.T) {
	t.Parallel()
	needAgentPython(t)
	hermes := buildHermes(t)
	buildGuardBeside(t, hermes)
	homes := []chaosHome{
		seedHome(t, hermes, "bare"), seedHome(t, hermes, "fail-closed"), seedHome(t, hermes, "protected"),
		corpusHome(t, hermes, "imported"), corpusHome(t, hermes, "fail-closed"),
	}
	fields, _ := pyjson.Decode([]byte(`{"tool_name": "terminal", "args": {"command": "rm -rf /"}}`))
	type lab struct {
		home chaosHome
		e    *hooks.Engine
		lab  *chaos.Lab
		hs   []hooks.ShellHook
	}
	var labs []lab
	for _, h := range homes {
		e := h.engine(t)
		l, err := chaos.New(e)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		list, _, _ := e.Store.Read()
		var hs []hooks.ShellHook
		for _, spec := range e.Parsed.Specs {
			if spec.Event == answer.EventPreToolCall {
				hs = append(hs, e.Inspect(spec, list))
			}
		}
		labs = append(labs, lab{h, e, l, hs})
	}
	grid := map[string][]string{}
	var mu sync.Mutex
	for _, f := range chaos.Faults {
		t.Run(string(f), func(t *testing.T) {
			var compared atomic.Int32
			var labsDone sync.WaitGroup
			for _, l := range labs {
				labsDone.Add(1)
				go func() {
					defer labsDone.Done()
					// The engine's cells, several at once (the slow fault
					// waits), then the agent's runner on the same trials in
					// one batch.
					type trial struct {
						name string
						h    hooks.ShellHook
						tr   chaos.Trial
						wire []byte
						cell chaos.Cell
					}
					trials := make([]trial, len(l.hs))
					var wg sync.WaitGroup
					for i, h := range l.hs {
						tr, err := l.lab.Prepare(h, f, fields.(*pyjson.Object))
						if err != nil {
							t.Errorf("%s %s: %v", l.home.name, h.Named(), err)
							return
						}
						trials[i] = trial{name: l.home.name + " " + h.Named(), h: h, tr: tr, wire: l.lab.Wire(h.Event, fields.(*pyjson.Object))}
						wg.Add(1)
						go func(x *trial) {
							defer wg.Done()
							x.cell = l.lab.Fire(context.Background(), x.h, x.tr, x.wire)
						}(&trials[i])
					}
					wg.Wait()
					var reqs []map[string]any
					var asked []*trial
					for i := range trials {
						x := &trials[i]
						mu.Lock()
						grid[x.name] = append(grid[x.name], fmt.Sprintf("%s=%s", f, x.cell))
						mu.Unlock()
						if x.tr.NA == "" {
							reqs = append(reqs, agentRequest(x.h.Event, x.h.FailClosed, x.tr, x.wire))
							asked = append(asked, x)
						}
					}
					if len(reqs) == 0 {
						return
					}
					cells, raw, err := agentCells(l.home.cwd, l.home.env, reqs)
					if err != nil {
						t.Errorf("%s: %v", l.home.name, err)
						return
					}
					for i, x := range asked {
						compared.Add(1)
						if x.cell != cells[i] {
							t.Errorf("%s under %s: the grid says %s, the agent's runner %s\n%s", x.name, f, x.cell, cells[i], raw[i])
						}
					}
				}()
			}
			labsDone.Wait()
			if compared.Load() == 0 {
				t.Errorf("no cell of %s was compared", f)
			}
		})
	}
	names := make([]string, 0, len(grid))
	for name := range grid {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Logf("%-70s %s", name, strings.Join(grid[name], " "))
	}
}
