package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStressInterruptLargeImport: SIGINT or SIGTERM during a large
// `import claude` ends it with exit 130 and writes nothing: the config is
// byte for byte what it was and no temporary file is left beside it. The
// signal is sent once hermes has closed the settings file it read whole
// (inotify's IN_CLOSE_NOWRITE): in the import, not a sleep later.
func TestStressInterruptLargeImport(t *testing.T) {
	bin := buildHermes(t)
	buildGuardBeside(t, bin)
	h := newStressHome(t, bin)
	n := stressSize(200000, 50000)
	project := filepath.Join(h.root, "project", ".claude")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(h.home, "config.yaml")
	before := []byte("# mine\nhooks:\n  pre_tool_call:\n    - command: /bin/true\n")
	if err := os.WriteFile(cfg, before, 0o600); err != nil {
		t.Fatal(err)
	}
	// Written as it is made: a buffer of it would raise this process's
	// peak RSS, which the stress tests' children inherit in their figures.
	settings := filepath.Join(project, "settings.json")
	f, err := os.Create(settings)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(`{"hooks": {"PreToolUse": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.WriteString(", ")
		}
		fmt.Fprintf(w, `{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh --n %d", "timeout": 10}]}`, i)
	}
	w.WriteString("]}}")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, _ := os.Stat(settings)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		// The event: hermes closed the settings file it read whole.
		cmd := h.command("hooks", "import", "claude", settings, "--json")
		stdout, stderr := signalWhen(t, cmd, settings, unix.IN_CLOSE_NOWRITE, nil, sig, "in the import")
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v during an import of %d hooks: exit %d, want 130:\n%.500s\n%s", sig, n, code, stdout, stderr)
		}
		if !strings.Contains(stdout.String(), `"code": 130`) {
			t.Errorf("%v: stdout %.300q, want the error document of exit 130", sig, stdout.String())
		}
		after, err := os.ReadFile(cfg)
		if err != nil || !bytes.Equal(after, before) {
			t.Errorf("%v: the config changed (%v):\n%.300s", sig, err, after)
		}
		entries, _ := os.ReadDir(h.home)
		for _, e := range entries {
			if e.Name() != "config.yaml" && !strings.HasSuffix(e.Name(), ".lock") {
				t.Errorf("%v: %s left in the home", sig, e.Name())
			}
		}
		t.Logf("%v during an import of %d hooks (%d MiB): exit %d", sig, n, fi.Size()>>20, cmd.ProcessState.ExitCode())
	}
}
