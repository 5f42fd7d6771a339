//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// TestEditUnderTheAgent is SPEC §25's proof of edit's swap: an agent-like
// runner (the agent's own Popen and judge, in Python) calls a protected,
// fail-closed guard in a loop while `hermes hooks edit --from … --yes`
// replaces its script again and again. Not one call is refused by the
// guard, blocked, or left without the hook's own answer; every version
// edited in runs.
func TestEditUnderTheAgent(t *testing.T) {
	t.Parallel()
	needAgentPython(t)
	hermes := buildHermes(t)
	buildGuardBeside(t, hermes)
	root := t.TempDir()
	os.Chmod(root, 0o755)
	home := filepath.Join(root, "home")
	hh := filepath.Join(home, ".hermes")
	if err := os.MkdirAll(filepath.Join(hh, "hooks"), 0o700); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(hh, "hooks", "guard.sh")
	version := func(n int) string {
		return fmt.Sprintf("#!/bin/sh\ncat >/dev/null\necho 'version %d' >&2\nexit 0\n", n)
	}
	if err := os.WriteFile(script, []byte(version(0)), 0o755); err != nil {
		t.Fatal(err)
	}
	config := "hooks:\n  pre_tool_call:\n    - command: " + script + "\n      fail_closed: true\n"
	if err := os.WriteFile(filepath.Join(hh, "config.yaml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + home, "HERMES_HOME=" + hh, "LC_ALL=C.UTF-8"}
	hermesRun := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(hermes, args...)
		cmd.Env, cmd.Dir = env, root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("hermes %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	hermesRun("hooks", "accept", "--all", "--yes")
	hermesRun("hooks", "protect", "--all")
	var listed struct {
		Shell []struct{ Wrapped string } `json:"shell_hooks"`
	}
	if err := json.Unmarshal([]byte(hermesRun("hooks", "list", "--json")), &listed); err != nil || len(listed.Shell) != 1 {
		t.Fatalf("list --json: %v %+v", err, listed)
	}
	argv, err := shell.Split(listed.Shell[0].Wrapped)
	if err != nil {
		t.Fatal(err)
	}

	stop := filepath.Join(root, "stop")
	loop, _ := filepath.Abs("../hermes-guard/testdata/agent_loop.py")
	req, _ := json.Marshal(map[string]any{"argv": argv, "event": "pre_tool_call", "fail_closed": true, "timeout": 30, "stop": stop,
		"payload": `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}}`})
	agent := exec.Command("python3", loop)
	agent.Env, agent.Dir, agent.Stdin = env, root, bytes.NewReader(req)
	var agentErr bytes.Buffer
	agent.Stderr = &agentErr
	pipe, err := agent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	calls := make(chan string)
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			calls <- sc.Text()
		}
		close(calls)
	}()
	type call struct {
		ReturnCode int             `json:"returncode"`
		Stderr     string          `json:"stderr"`
		Answer     json.RawMessage `json:"answer"`
	}
	var all []call
	take := func(line string) {
		var c call
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("agent loop printed %q: %v", line, err)
		}
		all = append(all, c)
	}
	const edits = 25
	for n := 1; n <= edits; n++ {
		// At least one call between two edits, and the edit itself runs
		// while the loop keeps calling.
		line, ok := <-calls
		if !ok {
			t.Fatalf("the agent loop ended early: %s", &agentErr)
		}
		take(line)
		from := filepath.Join(root, fmt.Sprintf("v%d.sh", n))
		os.WriteFile(from, []byte(version(n)), 0o600)
		hermesRun("hooks", "edit", script, "--from", from, "--yes")
	}
	// The loop keeps calling while the edits run, and its lines wait in
	// the pipe: the ones read next may be of calls made before the last
	// edit landed. Take calls until the last version runs (bounded; the
	// check below says if it never did).
	for i := 0; i < 5000; i++ {
		line, ok := <-calls
		if !ok {
			break
		}
		take(line)
		if strings.TrimSpace(all[len(all)-1].Stderr) == fmt.Sprintf("version %d", edits) {
			break
		}
	}
	os.WriteFile(stop, nil, 0o600)
	for line := range calls {
		take(line)
	}
	if err := agent.Wait(); err != nil {
		t.Fatalf("agent loop: %v\n%s", err, &agentErr)
	}

	seen := map[string]bool{}
	for i, c := range all {
		if c.ReturnCode != 0 || string(c.Answer) != "null" || strings.Contains(c.Stderr, "hermes-guard") {
			t.Errorf("call %d of %d: returncode %d, answer %s, stderr %q", i+1, len(all), c.ReturnCode, c.Answer, c.Stderr)
		}
		seen[strings.TrimSpace(c.Stderr)] = true
	}
	if !seen[fmt.Sprintf("version %d", edits)] || len(seen) < edits/2 {
		t.Errorf("versions that ran: %v (of %d edits, over %d calls)", seen, edits, len(all))
	}
	t.Logf("%d calls over %d edits, %d versions seen running", len(all), edits, len(seen))
	if got, _ := os.ReadFile(script); string(got) != version(edits) {
		t.Errorf("the script after the edits: %q", got)
	}
}
