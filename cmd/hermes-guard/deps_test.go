package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestGuardStaysLean: the guard runs on every tool call of the agent, so
// its path must not pay the start-up of the CLI stack or the matcher
// engine (SPEC §17, STYLE.md "Where new capabilities go").
func TestGuardStaysLean(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"github.com/spf13/cobra", "github.com/spf13/viper", "github.com/AlecAivazis/survey",
		"github.com/dlclark/regexp2", "gopkg.in/yaml", "go.yaml.in/yaml", "github.com/hermes-hooks/hermes/internal/hooks",
		"github.com/hermes-hooks/hermes/internal/config", "github.com/hermes-hooks/hermes/internal/cli",
		"github.com/hermes-hooks/hermes/internal/pyre"}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") || strings.HasPrefix(dep, b+".") {
				t.Errorf("hermes-guard depends on %s", dep)
			}
		}
	}
}
