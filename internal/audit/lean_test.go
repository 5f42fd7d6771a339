package audit

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The guard appends to the audit log on every agent tool call, from a lean
// binary (SPEC §17): this package must not pull in the CLI's or the
// config's heavy dependencies.
func TestAuditStaysLean(t *testing.T) {
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"spf13/cobra", "spf13/viper", "AlecAivazis/survey", "yaml", "regexp2", "fsnotify", "internal/hooks", "internal/config"} {
			if strings.Contains(dep, heavy) {
				t.Errorf("internal/audit depends on %s", dep)
			}
		}
	}
}
