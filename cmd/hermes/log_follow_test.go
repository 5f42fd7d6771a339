//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// SPEC §21: log --follow, the real binary, prints a line appended after it
// started, goes on printing across a rotation, and ends with exit 130 on
// SIGINT. It waits on its output, never on a clock.
func TestLogFollow(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	appendRun := func(command string) { appendRanLine(t, hermesHome, command) }
	appendRun("~/before.sh")
	cmd := hermesCmd(t, home, "hooks", "log", "--follow", "--event", "pre_tool_call")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	waitFor := func(want string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("log --follow ended before printing %q\n%s", want, stderr.String())
				}
				if strings.Contains(l, want) {
					if !strings.Contains(l, " ok ") || !strings.Contains(l, "via exec") {
						t.Errorf("line %q lacks its outcome or via", l)
					}
					return
				}
			case <-deadline:
				t.Fatalf("log --follow never printed %q", want)
			}
		}
	}
	waitFor("~/before.sh")
	appendRun("~/after.sh")
	waitFor("~/after.sh")
	// A rotation (as Append makes one at 16 MiB): the old file moves away,
	// a new one starts.
	path := audit.Path(hermesHome)
	if err := os.Rename(path, audit.RotatedPath(path)); err != nil {
		t.Fatal(err)
	}
	appendRun("~/rotated.sh")
	waitFor("~/rotated.sh")

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("log --follow after SIGINT: %v, want exit 130\n%s", err, stderr.String())
	}
}

// appendRanLine appends to the audit log of hermesHome the line of a
// guarded pre_tool_call hook, command, that ran and exited 0.
func appendRanLine(t *testing.T, hermesHome, command string) {
	t.Helper()
	code := 0
	r := audit.Record{Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: command, Via: audit.ViaExec, Status: audit.StatusRan}
	r.Result.ExitCode = &code
	if err := audit.Append(hermesHome, r); err != nil {
		t.Fatal(err)
	}
}
