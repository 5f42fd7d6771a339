package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/chaos"
)

// bigHooks are hooks whose stdout passes the 1 MiB that is shown, each
// within the 64 MiB that is judged (SPEC §29 item 10).
var bigHooks = map[string]string{
	// A block padded to 2 MiB: the agent parses all of it and blocks.
	"block.sh": `printf '{"action": "block", "message": "block.sh: no", "pad": "'
head -c 2097152 /dev/zero | tr '\0' x
printf '"}\n'
`,
	// 2 MiB of padding, then something that is not JSON: nothing, or a
	// fail-closed block.
	"garbage.sh": `printf '{"action": "block", "pad": "'
head -c 2097152 /dev/zero | tr '\0' x
printf '"} and then some\n'
`,
	// A valid answer whose closing brace lies past 1 MiB: an allow.
	"approve.sh": `printf '{"action": "approve", "pad": "'
head -c 1500000 /dev/zero | tr '\0' x
printf '"}\n'
`,
}

// TestBigAnswersAreJudgedAsTheAgentJudgesThem runs each big hook, plain
// and fail-closed, with the agent's own runner (Python: Popen, text mode,
// communicate, json.loads of the whole stdout) and with run-event, and
// wants the same verdict from both.
func TestBigAnswersAreJudgedAsTheAgentJudgesThem(t *testing.T) {
	t.Parallel()
	if out, err := exec.Command("python3", "-c", "import sys; assert sys.version_info >= (3, 11)").CombinedOutput(); err != nil {
		t.Skipf("the agent's runner needs python3 >= 3.11 (process_group): %v %s", err, out)
	}
	hermes := buildHermes(t)
	root := t.TempDir()
	hh := filepath.Join(root, ".hermes")
	if err := os.MkdirAll(hh, 0o700); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + root, "HERMES_HOME=" + hh, "LC_ALL=C.UTF-8", "HERMES_ACCEPT_HOOKS=1"}
	type trial struct {
		name       string
		failClosed bool
	}
	var trials []trial
	var reqs []map[string]any
	for name, body := range bigHooks {
		path := filepath.Join(hh, name)
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, fc := range []bool{false, true} {
			trials = append(trials, trial{name, fc})
			reqs = append(reqs, agentRequest("pre_tool_call", fc,
				chaos.Trial{Argv: []string{path}, Env: env, Timeout: time.Minute}, []byte("{}")))
		}
	}
	agent, raw, err := agentCells(root, env, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range trials {
		cfg := filepath.Join(root, "config.yaml")
		text := "hooks:\n  pre_tool_call:\n    - command: " + filepath.Join(hh, tr.name) + "\n"
		if tr.failClosed {
			text += "      fail_closed: true\n"
		}
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(hermes, "--config", cfg, "hooks", "run-event", "pre_tool_call", "--payload", "{}", "--json")
		cmd.Env, cmd.Dir = env, root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: run-event: %v", tr.name, err)
		}
		var got struct {
			Outcome struct{ Action string } `json:"outcome"`
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%s: run-event --json: %v", tr.name, err)
		}
		ours := chaos.Allow
		if got.Outcome.Action == "block" {
			ours = chaos.Block
		}
		if ours != agent[i] {
			r := raw[i]
			if len(r) > 300 {
				r = r[:300] + "…"
			}
			t.Errorf("%s (fail_closed %v): run-event judges %v, the agent %v (%s)", tr.name, tr.failClosed, ours, agent[i], r)
		}
	}
	// What the agent gives, so the proof cannot pass on a runner that
	// judges nothing.
	want := map[trial]chaos.Cell{{"block.sh", false}: chaos.Block, {"garbage.sh", false}: chaos.Allow, {"garbage.sh", true}: chaos.Block, {"approve.sh", false}: chaos.Allow}
	for i, tr := range trials {
		if w, ok := want[tr]; ok && agent[i] != w {
			t.Errorf("the agent judged %s (fail_closed %v) %v, want %v", tr.name, tr.failClosed, agent[i], w)
		}
	}
}
