package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// canaryDoc is what the canary proofs read of test --cases --json.
type canaryDoc struct {
	Cases []struct {
		Name     string   `json:"name"`
		Passed   bool     `json:"passed"`
		Failures []string `json:"failures"`
	} `json:"cases"`
	Failed   int `json:"failed"`
	Canaries struct {
		Passed  int `json:"passed"`
		Blocked int `json:"blocked"`
	} `json:"canaries"`
}

// canariesPassTheSeed is part of SPEC §26's proof: the canary starter set
// passes the seed's example hooks (examples/home, its guard protected).
func canariesPassTheSeed(t *testing.T, l *recordLab) {
	file := filepath.Join(l.root, "canaries.yaml")
	l.run(0, "hooks", "cases", "canaries", "--output", file)
	var doc canaryDoc
	l.json(&doc, 0, "hooks", "test", "--cases", file, "--json")
	if doc.Failed != 0 || doc.Canaries.Blocked != 0 || doc.Canaries.Passed < 40 || doc.Canaries.Passed != len(doc.Cases) {
		t.Errorf("the seed's hooks: %d failed, canaries %+v of %d cases", doc.Failed, doc.Canaries, len(doc.Cases))
	}
}

// canariesAgainstTheClaudeCorpus runs the canary starter set against
// the Claude Code corpus (testdata/claude-hooks), imported and approved,
// and says which hook blocked which canary. The corpus's guards that judge
// what a call does (no_force_push, protect_env, use_uv's rewrite) let every
// canary through. Three hooks block everyday calls, and the canaries catch
// exactly those: block_rm refuses any rm -rf (rm -rf ./build too),
// git_frozen every git command (the corpus's release freeze), and
// audit_strict, whose bug makes it fail closed on every call.
// stay_in_project lets the file canaries through: their relative paths
// reach it absolute, joined to the payload's cwd, as Claude Code sends
// them (it refused every write_file and patch canary while the dialect
// passed relative paths on as they were).
func canariesAgainstTheClaudeCorpus(t *testing.T, l *claudeLab) {
	file := filepath.Join(l.root, "canaries.yaml")
	l.run(l.root, "hooks", "cases", "canaries", "--output", file)
	cmd := l.command(l.app, "hooks", "test", "--cases", file, "--json")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("test --cases: %v\n%s", err, out)
	}
	var doc struct {
		Cases []struct {
			Name  string `json:"name"`
			Hooks []struct {
				Command string `json:"command"`
				Parsed  *struct {
					Action string `json:"action"`
				} `json:"parsed"`
			} `json:"hooks"`
		} `json:"cases"`
		Canaries struct{ Passed, Blocked int } `json:"canaries"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	blockedBy := map[string][]string{} // corpus script → canaries it blocked
	terminal := 0
	for _, c := range doc.Cases {
		if strings.HasPrefix(c.Name, "canary: terminal:") {
			terminal++
		}
		for _, h := range c.Hooks {
			if h.Parsed != nil && h.Parsed.Action == "block" {
				_, script, _ := strings.Cut(h.Command, "/.claude/hooks/")
				script = strings.Trim(strings.Fields(script)[0], `'"`)
				blockedBy[script] = append(blockedBy[script], strings.TrimPrefix(c.Name, "canary: "))
			}
		}
	}
	for script, calls := range blockedBy {
		sort.Strings(calls)
		t.Logf("%s blocks %d canaries: %s", script, len(calls), strings.Join(calls, "; "))
	}
	want := func(script string, pred func(call string) bool) {
		t.Helper()
		var exp []string
		for _, c := range doc.Cases {
			if call := strings.TrimPrefix(c.Name, "canary: "); pred(call) {
				exp = append(exp, call)
			}
		}
		sort.Strings(exp)
		if got := blockedBy[script]; strings.Join(got, "\n") != strings.Join(exp, "\n") {
			t.Errorf("%s blocked\n  %s\nwant\n  %s", script, strings.Join(got, "\n  "), strings.Join(exp, "\n  "))
		}
	}
	none := func(string) bool { return false }
	for _, script := range []string{"no_force_push.sh", "protect_env.py", "use_uv.py", "stay_in_project.sh"} {
		want(script, none)
	}
	want("block_rm.py", func(c string) bool { return strings.HasPrefix(c, "terminal: rm -rf ") })
	want("git_frozen.sh", func(c string) bool { return strings.HasPrefix(c, "terminal: git ") })
	want("audit_strict.py", func(c string) bool { return strings.HasPrefix(c, "terminal: ") })
	if doc.Canaries.Passed+doc.Canaries.Blocked != len(doc.Cases) || doc.Canaries.Blocked != terminal {
		t.Errorf("canaries %+v of %d (%d terminal)", doc.Canaries, len(doc.Cases), terminal)
	}
}
