package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// recordLab is a copy of the seed's home (examples/home) with its hooks
// approved and protected, and the real hermes and hermes-guard side by
// side: the agent's runner fires the guard as the agent would.
type recordLab struct {
	t            *testing.T
	hermes, root string
	hh           string
	env          []string
	guardArgv    []string // the protected guard.sh, as the agent runs it
}

// The secrets the proof plants: in the agent's environment, and in a
// secret-named key nested in the payload.
const (
	plantedEnvSecret    = "ghp_proof_planted_0001"
	plantedAPIKey       = "sk-proof-planted-0002"
	plantedNestedSecret = "proof-nested-planted-0003"
)

func newRecordLab(t *testing.T) *recordLab {
	t.Helper()
	needAgentPython(t)
	hermes := buildHermes(t)
	buildGuardBeside(t, hermes)
	root := t.TempDir()
	os.Chmod(root, 0o755)
	l := &recordLab{t: t, hermes: hermes, root: root, hh: filepath.Join(root, "home", ".hermes")}
	os.MkdirAll(filepath.Dir(l.hh), 0o755)
	src, _ := filepath.Abs("../../examples/home")
	if out, err := exec.Command("cp", "-a", src, l.hh).CombinedOutput(); err != nil {
		t.Fatalf("copying the seed home: %v\n%s", err, out)
	}
	os.Chmod(l.hh, 0o700)
	l.env = []string{"PATH=/usr/bin:/bin:/usr/local/bin", "HOME=" + filepath.Dir(l.hh), "HERMES_HOME=" + l.hh, "LC_ALL=C.UTF-8",
		"GITHUB_TOKEN=" + plantedEnvSecret, "OPENAI_API_KEY=" + plantedAPIKey}
	l.run(0, "hooks", "accept", "--all", "--yes")
	var prot struct {
		Protected []struct{ Event, Command, Wrapped string }
	}
	l.json(&prot, 0, "hooks", "protect", "--all", "--json")
	for _, p := range prot.Protected {
		if strings.HasSuffix(p.Command, "/guard.sh") {
			argv, err := shell.Split(strings.ReplaceAll(p.Wrapped, "${HERMES_HOME}", l.hh))
			if err != nil {
				t.Fatal(err)
			}
			l.guardArgv = argv
		}
	}
	if l.guardArgv == nil {
		t.Fatalf("protect did not protect guard.sh: %+v", prot)
	}
	return l
}

// run runs hermes and wants exit code want.
func (l *recordLab) run(want int, args ...string) []byte {
	l.t.Helper()
	cmd := exec.Command(l.hermes, args...)
	cmd.Env, cmd.Dir = l.env, l.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if code := cmd.ProcessState.ExitCode(); code != want {
		l.t.Fatalf("hermes %s: exit %d (%v), want %d\n%s\n%s", strings.Join(args, " "), code, err, want, out, &stderr)
	}
	return out
}

func (l *recordLab) json(v any, want int, args ...string) {
	l.t.Helper()
	out := l.run(want, args...)
	if err := json.Unmarshal(out, v); err != nil {
		l.t.Fatalf("hermes %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// agentResult is what the agent's runner saw of one run.
type agentResult struct {
	ReturnCode int             `json:"returncode"`
	Stderr     string          `json:"stderr"`
	Answer     json.RawMessage `json:"answer"`
}

// fire runs the protected guard.sh once per payload with the agent's
// runner (one Python process, as one agent firing call after call).
func (l *recordLab) fire(payloads []string) []agentResult {
	l.t.Helper()
	var reqs []map[string]any
	for _, p := range payloads {
		reqs = append(reqs, map[string]any{"argv": l.guardArgv, "payload": p, "timeout": 30, "event": "pre_tool_call"})
	}
	body, _ := json.Marshal(reqs)
	runner, _ := filepath.Abs("../hermes-guard/testdata/agent_runner.py")
	cmd := exec.Command("python3", runner)
	cmd.Env, cmd.Dir, cmd.Stdin = l.env, l.root, bytes.NewReader(body)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.t.Fatalf("agent runner: %v\n%s", err, &stderr)
	}
	var res []agentResult
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(payloads) {
		l.t.Fatalf("agent runner: %v, %d results for %d payloads", err, len(res), len(payloads))
	}
	return res
}

// traffic is n calls of the agent's terminal tool: everyday commands,
// sudo calls, the one the seed's guard refuses, and calls that carry the
// planted secrets. It returns the payloads and the sudo commands among
// them.
func traffic(n int, cwd string) (payloads []string, sudo map[string]bool) {
	commands := []string{
		"ls -la", "git status", "git diff", "npm test", "pytest -q", "go build ./...", "cat README.md",
		"sudo apt-get update", "rm -rf /", "mkdir -p /tmp/x 2>/dev/null", "sudo systemctl restart nginx",
		"curl -H 'Authorization: Bearer " + plantedEnvSecret + "' https://api.github.com/user",
		"OPENAI_API_KEY=" + plantedAPIKey + " python3 eval.py", "sudo ls /root", "rm -rf ./build", "make test",
	}
	sudo = map[string]bool{}
	for i := 0; i < n; i++ {
		c := commands[i%len(commands)]
		if i%7 == 3 {
			c = fmt.Sprintf("echo run %d", i%50) // variety, with repeats
		}
		if strings.HasPrefix(c, "sudo ") {
			sudo[c] = true
		}
		// As the agent's json.dumps writes it: ", " and ": ", nothing
		// escaped that need not be (guard.sh matches the text).
		input := `{"command": ` + string(pyjson.Marshal(c, pyjson.Options{})) + `}`
		extra := fmt.Sprintf(`{"task_id": "task-1", "tool_call_id": "call_%06d", "turn_id": "turn-%d", "auth": {"session": {"api_key": %q}}}`, i, i/10, plantedNestedSecret)
		payloads = append(payloads, fmt.Sprintf(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": %s, "session_id": "sess-1", "cwd": %q, "profile": "", "extra": %s}`,
			input, cwd, extra))
	}
	return payloads, sudo
}

// TestRecordReplayProof is SPEC §26's proof: firings of the seed's guard
// (1,000 under make stress, 100 here) recorded through the agent's runner
// and the guard; cases made of them pass against the same guard; an edit
// of the guard that blocks sudo fails exactly the recorded sudo calls; no
// planted secret is in any recorded file; test --cases records nothing.
func TestRecordReplayProof(t *testing.T) {
	l := newRecordLab(t)
	cfg := filepath.Join(l.hh, "config.yaml")
	appendTo(t, cfg, "\nhooks_record: true\n")
	n := stressSize(1000, 100)
	payloads, sudo := traffic(n, l.root)
	res := l.fire(payloads)
	blocks := 0
	for i, r := range res {
		blocked := strings.Contains(string(r.Answer), `"block"`)
		if want := strings.Contains(payloads[i], `"command": "rm -rf /"`); blocked != want {
			t.Fatalf("firing %d: answer %s, stderr %q (blocked %t, want %t)", i, r.Answer, r.Stderr, blocked, want)
		}
		if blocked {
			blocks++
		}
	}
	if blocks == 0 {
		t.Fatal("the seed's guard blocked nothing: the traffic does not test it")
	}

	payloadDir := filepath.Join(l.hh, "logs", "payloads")
	stored, _ := filepath.Glob(filepath.Join(payloadDir, "*.json"))
	if len(stored) != n {
		t.Fatalf("%d payloads stored for %d firings", len(stored), n)
	}
	auditLog, _ := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	if c := bytes.Count(auditLog, []byte(`"via":"exec"`)); c != n {
		t.Fatalf("%d guard lines in the audit log for %d firings", c, n)
	}
	noSecrets(t, filepath.Join(l.hh, "logs"))

	traffic := filepath.Join(l.root, "traffic.yaml")
	l.run(0, "hooks", "cases", "from-log", "--output", traffic)
	data, _ := os.ReadFile(traffic)
	if !bytes.HasPrefix(data, []byte(fmt.Sprintf("# Made by `hermes hooks cases from-log` on "))) ||
		!bytes.Contains(data, []byte(fmt.Sprintf("from %d recorded firing(s)", n))) {
		t.Fatalf("the case file's first comment: %.300s", data)
	}
	noSecrets(t, l.root) // the case file too

	// Today's guard, yesterday's traffic: every decision is the same.
	var doc casesDoc
	l.json(&doc, 0, "hooks", "test", "--cases", traffic, "--json")
	if doc.Failed != 0 || doc.Passed == 0 {
		t.Fatalf("replaying against the same guard: %d passed, %d failed", doc.Passed, doc.Failed)
	}

	// The canary starter set passes the seed's hooks (SPEC §26's proof).
	canariesPassTheSeed(t, l)

	// The guard is edited to block sudo, and approved again.
	guard := filepath.Join(l.hh, "agent-hooks", "guard.sh")
	src, _ := os.ReadFile(guard)
	edited := strings.Replace(string(src), "esac\n", `  *'"command": "sudo '*)
    echo '{"action": "block", "message": "guard.sh: no sudo"}'
    exit 0
    ;;
esac
`, 1)
	if edited == string(src) {
		t.Fatal("the seed's guard has no esac to edit")
	}
	os.WriteFile(guard, []byte(edited), 0o755)
	l.run(0, "hooks", "accept", "--all", "--yes")
	doc = casesDoc{}
	l.json(&doc, 1, "hooks", "test", "--cases", traffic, "--json")
	var failed []string
	for _, c := range doc.Cases {
		if !c.Passed {
			failed = append(failed, c.Name[:strings.LastIndex(c.Name, " (")])
		}
	}
	var want []string
	for c := range sudo {
		want = append(want, "terminal: "+c)
	}
	sort.Strings(failed)
	sort.Strings(want)
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("after blocking sudo, the failing cases are\n%s\nwant exactly the recorded sudo calls\n%s", strings.Join(failed, "\n"), strings.Join(want, "\n"))
	}
	// test --cases never records.
	if again, _ := filepath.Glob(filepath.Join(payloadDir, "*.json")); len(again) != n {
		t.Errorf("test --cases recorded: %d payloads, was %d", len(again), n)
	}
}

// casesDoc is what the proof reads of test --cases --json.
type casesDoc struct {
	Cases []struct {
		Name   string `json:"name"`
		Passed bool   `json:"passed"`
	} `json:"cases"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

// noSecrets fails when a planted secret is in any file under dir.
func noSecrets(t *testing.T, dir string) {
	t.Helper()
	files := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("reading %s: %v", path, err)
		}
		for _, s := range []string{plantedEnvSecret, plantedAPIKey, plantedNestedSecret} {
			if bytes.Contains(data, []byte(s)) {
				t.Errorf("%s holds the planted secret %s", path, s)
			}
		}
		return nil
	})
	if files == 0 {
		t.Errorf("no file under %s to look into", dir)
	}
}

func appendTo(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
