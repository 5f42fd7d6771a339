package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLookup(t *testing.T) {
	term, ok := Lookup("terminal")
	if !ok || term.Status != "current" || !term.Confirmed {
		t.Fatalf("terminal = %+v, %v", term, ok)
	}
	if a, ok := term.Arg("command"); !ok || a.Type != "string" || !a.Required {
		t.Errorf("terminal.command = %+v, %v", a, ok)
	}
	if _, ok := Lookup("Bash"); ok {
		t.Error("Bash is a Claude tool, not the agent's")
	}
	if got := Canonical("todo"); got != "todo_list" {
		t.Errorf("Canonical(todo) = %q", got)
	}
	if got := Canonical("patch"); got != "patch" {
		t.Errorf("Canonical(patch) = %q", got)
	}
	for _, n := range []string{"write_file", "patch", "read_file", "web_extract", "delegate_task", "browser_exec", "spotify_search", "mcp_github_create_issue"} {
		if !Known(n) {
			t.Errorf("Known(%q) = false", n)
		}
	}
	for _, n := range []string{"Bash", "mcp_", "mcp__github__x!", "", "Terminal"} {
		if Known(n) {
			t.Errorf("Known(%q) = true", n)
		}
	}
	names := Names()
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Fatalf("Names not sorted or duplicated at %q, %q", names[i-1], names[i])
		}
	}
}

// TestGenerated checks tools.json is what scripts/gen-tools.py makes of the
// shared reference, when that reference is on this machine.
func TestGenerated(t *testing.T) {
	const ref = "/work/shared/hermes-tools.json"
	if _, err := os.Stat(ref); err != nil {
		t.Skip("reference hermes-tools.json not on this machine")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "internal/catalog/tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("../../../scripts/gen-tools.py")
	cmd := exec.Command(py, script, ref)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen-tools.py: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "internal/catalog/tools/tools.json"))
	if string(got) != string(catalogueJSON) {
		t.Error("tools.json is stale: run scripts/gen-tools.py /work/shared/hermes-tools.json")
	}
}
