//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The bundled example home ships policy cases, and they pass: the command
// a CI job would run (hermes hooks test --cases … --junit …), on a copy of
// examples/home, as make demo uses it.
func TestExampleHomeCasesPass(t *testing.T) {
	bin, err := exec.LookPath("hermes")
	if err != nil {
		t.Fatalf("hermes is not on PATH (TestMain's testscript.Main puts it there): %v", err)
	}
	home := filepath.Join(t.TempDir(), "home")
	if err := os.CopyFS(home, os.DirFS(filepath.Join("..", "..", "examples", "home"))); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "junit.xml")
	cmd := exec.Command(bin, "hooks", "test", "--cases", filepath.Join(home, "hook-cases.yaml"), "--junit", junit, "--json")
	// The example config names its scripts as ${HERMES_HOME}/agent-hooks/….
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "HERMES_HOME="+home)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("hermes hooks test --cases on the example home: %v\n%s", err, out)
	}
	var report struct {
		Cases []struct {
			Name     string   `json:"name"`
			Passed   bool     `json:"passed"`
			Failures []string `json:"failures"`
		} `json:"cases"`
		Passed int `json:"passed"`
		Failed int `json:"failed"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if report.Failed != 0 || report.Passed < 5 || report.Passed != len(report.Cases) {
		t.Errorf("passed %d, failed %d of %d cases: %+v", report.Passed, report.Failed, len(report.Cases), report.Cases)
	}
	if fi, err := os.Stat(junit); err != nil || fi.Size() == 0 {
		t.Errorf("no JUnit report: %v", err)
	}
	// Nothing was approved on the way.
	if _, err := os.Stat(filepath.Join(home, "shell-hooks-allowlist.json")); !os.IsNotExist(err) {
		t.Errorf("the cases wrote an allowlist: %v", err)
	}
}
