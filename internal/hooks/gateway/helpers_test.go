package gateway

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// known is the gateway catalogue of SPEC §3.2 as the caller passes it.
var known = []string{"gateway:startup", "session:start", "session:end", "session:reset",
	"session:compress", "agent:start", "agent:step", "agent:end", "reaction:added",
	"reaction:removed", "command:*"}

// folder describes one hook folder to create; empty fields are not written.
type folder struct {
	yaml    string // HOOK.yaml content
	py      string // handler.py content
	exe     string // handler content, written with mode 0755
	exeMode os.FileMode
}

func writeFolder(t *testing.T, root, name string, f folder) string {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(file, content string, mode os.FileMode) {
		if content == "" {
			return
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(ManifestName, f.yaml, 0o644)
	write(HandlerPy, f.py, 0o644)
	mode := f.exeMode
	if mode == 0 {
		mode = 0o755
	}
	write(HandlerExec, f.exe, mode)
	return dir
}

// python returns the python3 the tests run handlers with, skipping the
// test when the machine has none.
func python(t *testing.T) string {
	t.Helper()
	pythonOnce.Do(func() {
		path, err := exec.LookPath("python3")
		if err != nil {
			return
		}
		pythonPath = path
		// python3 may be a version manager's shim (a shell script that
		// costs far more than the interpreter); the tests run hundreds of
		// handlers, so use the interpreter it resolves to.
		if out, err := exec.Command(path, "-c", "import sys; print(sys.executable)").Output(); err == nil {
			if real := strings.TrimSpace(string(out)); real != "" {
				pythonPath = real
			}
		}
	})
	if pythonPath == "" {
		t.Skip("python3 not installed")
	}
	return pythonPath
}

var (
	pythonOnce sync.Once
	pythonPath string
)

func names(hooks []Hook) []string {
	out := []string{}
	for _, h := range hooks {
		out = append(out, h.Name)
	}
	return out
}
