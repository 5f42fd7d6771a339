package gateway

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes/internal/proctest"
)

// hangPy starts a child in the runner's process group, records both pids
// (the runner's and the child's) in PIDS, says so on stdout and on the
// notify path (NOTIFY, a FIFO or a file), then hangs.
const hangPy = `
import os, subprocess, time
def handle(event_type, context):
    child = subprocess.Popen(["sleep", "1000"])
    with open(PIDS, "w") as f:
        f.write("%d %d" % (os.getpid(), child.pid))
    print("about to hang")
    with open(NOTIFY, "w") as f:
        f.write("ready")
    time.sleep(1000)
`

func hangFolder(pids, notify string) folder {
	src := strings.ReplaceAll(hangPy, "PIDS", strconv.Quote(pids))
	return folder{yaml: hookYAML, py: strings.ReplaceAll(src, "NOTIFY", strconv.Quote(notify))}
}

// readPids returns the pids the hanging handler recorded, and makes sure
// they are killed when the test ends even if Fire failed to.
func readPids(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the hanging handler did not record its pids: %v", err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
		t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	}
	return pids
}

// waitGone fails the test unless the process exits within 10 s: Fire
// returned, so its group was sent SIGKILL, which lands quickly but not
// synchronously.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	if !proctest.Exited(t, pid, 10*time.Second) {
		t.Errorf("process %d is still running after Fire returned: its group was not killed", pid)
	}
}

func TestFireTimeoutKillsGroup(t *testing.T) {
	r := newRunner(t)
	r.Timeout = 3 * time.Second
	root, tmp := t.TempDir(), t.TempDir()
	pids := filepath.Join(tmp, "pids")
	writeFolder(t, root, "1-first", folder{yaml: hookYAML, py: "def handle(e, c):\n    return 'done'\n"})
	writeFolder(t, root, "2-hang", hangFolder(pids, filepath.Join(tmp, "notified")))
	writeFolder(t, root, "3-never", folder{yaml: hookYAML, py: okPy})

	results, err := r.Fire(context.Background(), "agent:start", nil, Match(Discover(root, known), "agent:start"))
	if err != nil {
		t.Fatalf("Fire: %v", err)
	}
	if len(results) != 3 {
		t.Fatalf("got %d results, want 3", len(results))
	}
	first, hung, never := results[0], results[1], results[2]
	if first.Status != StatusOK || string(first.Result) != `"done"` {
		t.Errorf("handler before the hang: %+v, want ok \"done\"", first)
	}
	if hung.Status != StatusTimeout || !strings.Contains(hung.Error, "timed out after 3s") {
		t.Errorf("hanging handler: status %q error %q, want timeout", hung.Status, hung.Error)
	}
	if hung.Stdout != "about to hang\n" {
		t.Errorf("hanging handler's output before the kill = %q, want it kept", hung.Stdout)
	}
	if never.Status != StatusTimeout || !strings.Contains(never.Error, "not run") {
		t.Errorf("handler after the hang: status %q error %q, want timeout, not run", never.Status, never.Error)
	}
	for _, pid := range readPids(t, pids) {
		waitGone(t, pid)
	}
}

func TestFireCancelKillsGroup(t *testing.T) {
	r := newRunner(t)
	root, tmp := t.TempDir(), t.TempDir()
	pids, fifo := filepath.Join(tmp, "pids"), filepath.Join(tmp, "ready")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	writeFolder(t, root, "hang", hangFolder(pids, fifo))
	writeFolder(t, root, "later", folder{yaml: hookYAML, exe: "#!/bin/sh\necho ran\n"})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Opening the read end blocks until the handler opens the write
		// end: cancel only once it is surely running.
		f, err := os.Open(fifo)
		if err == nil {
			_, _ = f.Read(make([]byte, 8))
			f.Close()
		}
		cancel()
	}()
	results, err := r.Fire(ctx, "agent:start", nil, Match(Discover(root, known), "agent:start"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Fire error = %v, want context.Canceled", err)
	}
	if len(results) != 2 {
		t.Fatalf("got %d results, want 2", len(results))
	}
	for _, res := range results {
		if res.Status != StatusError || !strings.Contains(res.Error, "interrupted") {
			t.Errorf("%s: status %q error %q, want error interrupted", res.Name, res.Status, res.Error)
		}
	}
	for _, pid := range readPids(t, pids) {
		waitGone(t, pid)
	}
}

// A disabled hook's module is never imported: Match leaves it out, and Fire
// refuses it even when handed it directly.
func TestFireNeverImportsDisabled(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	marker := filepath.Join(t.TempDir(), "imported")
	writeFolder(t, root, "off", folder{yaml: "events: [agent:start]\nenabled: false\n",
		py: "open(" + strconv.Quote(marker) + ", 'w').write('x')\n" + okPy})
	writeFolder(t, root, "on", folder{yaml: hookYAML, py: okPy})
	hooks := Discover(root, known)
	matched := Match(hooks, "agent:start")
	if got := names(matched); len(got) != 1 || got[0] != "on" {
		t.Fatalf("Match = %q, want [on]", got)
	}
	results, err := r.Fire(context.Background(), "agent:start", nil, hooks)
	if err != nil {
		t.Fatalf("Fire: %v", err)
	}
	if results[0].Status != StatusError || !strings.Contains(results[0].Error, "disabled") {
		t.Errorf("disabled hook result %+v, want error saying disabled", results[0])
	}
	if results[1].Status != StatusOK {
		t.Errorf("enabled hook result %+v, want ok", results[1])
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the disabled hook's module was executed")
	}
}

// A handler that ends its interpreter (os._exit) cannot take its siblings
// down: each handler runs in a process of its own, so it reports how its
// process ended, with what it printed, and the handlers after it run.
func TestFireRunnerDies(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	writeFolder(t, root, "1-ok", folder{yaml: hookYAML, py: "def handle(e, c):\n    return 1\n"})
	writeFolder(t, root, "2-exit", folder{yaml: hookYAML, py: "import os, sys\ndef handle(e, c):\n    sys.stderr.write('bye\\n')\n    os._exit(7)\n"})
	writeFolder(t, root, "3-after", folder{yaml: hookYAML, py: okPy})
	results, err := r.Fire(context.Background(), "agent:start", nil, Match(Discover(root, known), "agent:start"))
	if err != nil {
		t.Fatalf("Fire: %v", err)
	}
	if results[0].Status != StatusOK || string(results[0].Result) != "1" {
		t.Errorf("1-ok: %+v", results[0])
	}
	if res := results[1]; res.Status != StatusError || !strings.Contains(res.Error, "the handler's process exited with code 7 before handle returned") {
		t.Errorf("2-exit: status %q error %q, want its own exit status", res.Status, res.Error)
	}
	if res := results[2]; res.Status != StatusOK || res.Error != "" {
		t.Errorf("3-after: status %q error %q; a sibling's exit must not hide it", res.Status, res.Error)
	}
	if results[1].Stderr != "bye\n" {
		t.Errorf("2-exit stderr = %q", results[1].Stderr)
	}
}
