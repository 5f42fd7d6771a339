package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestGuideCISnippets keeps the guide's CI snippets (GitHub Actions and
// GitLab CI) and the scenario that runs them (ci_guide_snippet.txtar) on
// the same commands: the scenario proves what the guide tells CI authors
// to run (SPEC §20).
func TestGuideCISnippets(t *testing.T) {
	guide, err := os.ReadFile("../../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../../testdata/script/ci_guide_snippet.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var proved []string
	for _, m := range regexp.MustCompile(`(?m)^run '(hermes hooks [^']+)'$`).FindAllStringSubmatch(string(script), -1) {
		proved = append(proved, m[1])
	}
	if len(proved) < 3 {
		t.Fatalf("the scenario runs %d hermes commands, want the snippets' three", len(proved))
	}
	for _, name := range []string{"# .github/workflows/hooks.yml", "# .gitlab-ci.yml"} {
		_, rest, ok := strings.Cut(string(guide), name)
		if !ok {
			t.Fatalf("the guide has no %s snippet", name)
		}
		block, _, _ := strings.Cut(rest, "```")
		var cmds []string
		for _, m := range regexp.MustCompile(`(?m)^\s*(?:- run:|run:|-)\s+(hermes hooks .+)$`).FindAllStringSubmatch(block, -1) {
			cmds = append(cmds, strings.TrimSpace(m[1]))
		}
		if !slices.Equal(cmds, proved) {
			t.Errorf("%s runs\n  %s\nthe scenario proves\n  %s", name, strings.Join(cmds, "\n  "), strings.Join(proved, "\n  "))
		}
		if strings.Contains(block, "--accept-hooks") || strings.Contains(block, "accept --all") {
			t.Errorf("%s still trusts whatever is on disk", name)
		}
	}
}
