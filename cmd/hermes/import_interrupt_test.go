package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestStressInterruptLargeImport: SIGINT or SIGTERM during a large
// `import claude` ends it with exit 130 and writes nothing: the config is
// byte for byte what it was and no temporary file is left beside it. The
// settings file is a FIFO the test writes to, so the signal is sent once
// hermes has taken in all but the pipe's buffer of it — in the import,
// not a sleep later.
func TestStressInterruptLargeImport(t *testing.T) {
	h := newStressHome(t, buildHermes(t))
	n := stressSize(200000, 50000)
	var b bytes.Buffer
	b.WriteString(`{"hooks": {"PreToolUse": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"matcher": "Bash|Edit", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh --n %d", "timeout": 10}]}`, i)
	}
	b.WriteString("]}}")
	project := filepath.Join(h.root, "project", ".claude")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(h.home, "config.yaml")
	before := []byte("# mine\nhooks:\n  pre_tool_call:\n    - command: /bin/true\n")
	if err := os.WriteFile(cfg, before, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		fifo := filepath.Join(project, fmt.Sprintf("settings%d.json", i))
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skipf("needs a FIFO to know hermes is in the import: %v", err)
		}
		cmd := h.command("hooks", "import", "claude", fifo, "--json")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		written := make(chan error, 1)
		go func() {
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for hermes to open it
			if err == nil {
				_, err = w.Write(b.Bytes())
				w.Close()
			}
			written <- err
		}()
		select {
		case err := <-written:
			if err != nil {
				t.Fatalf("hermes stopped reading: %v\n%s", err, &stderr)
			}
		case <-exited:
			// Unblock the writer, then report.
			if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				r.Close()
			}
			t.Fatalf("hermes exited %d before it read the settings:\n%s\n%s", cmd.ProcessState.ExitCode(), &stdout, &stderr)
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		<-exited
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v during an import of %d hooks: exit %d, want 130:\n%.500s\n%s", sig, n, code, &stdout, &stderr)
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
		t.Logf("%v during an import of %d hooks (%d MiB): exit %d", sig, n, b.Len()>>20, cmd.ProcessState.ExitCode())
	}
}
