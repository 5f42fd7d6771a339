package gateway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// A handler's output is bounded like a shell hook's: the start of stdout,
// the end of stderr, at most shell.MaxCapture bytes each, however much it
// prints (here 8 MiB of each, from Python and from a child process).
func TestFireHandlerOutputBounded(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	writeFolder(t, root, "loud", folder{yaml: hookYAML, py: `import os, subprocess, sys
def handle(e, c):
    sys.stdout.write("first line\n")
    sys.stdout.flush()
    chunk = "x" * 65535 + "\n"
    for _ in range(128):
        sys.stdout.write(chunk)
        sys.stderr.write(chunk)
    sys.stdout.flush()
    sys.stderr.flush()
    subprocess.run(["sh", "-c", "head -c 2000000 /dev/zero >&2; echo the real error >&2"])
    return "done"
`})
	results, err := r.Fire(context.Background(), "agent:start", nil, Match(Discover(root, known), "agent:start"))
	if err != nil {
		t.Fatalf("Fire: %v", err)
	}
	res := results[0]
	if res.Status != StatusOK || string(res.Result) != `"done"` {
		t.Fatalf("status %q error %q result %s", res.Status, res.Error, res.Result)
	}
	if len(res.Stdout) != shell.MaxCapture || !res.StdoutTruncated || !strings.HasPrefix(res.Stdout, "first line\nxxx") {
		t.Errorf("stdout: %d bytes, truncated %v, starts %q; want its first %d bytes", len(res.Stdout), res.StdoutTruncated, res.Stdout[:min(20, len(res.Stdout))], shell.MaxCapture)
	}
	if len(res.Stderr) != shell.MaxCapture || !res.StderrTruncated || !strings.HasSuffix(res.Stderr, "the real error\n") {
		t.Errorf("stderr: %d bytes, truncated %v; want its last %d bytes, ending with the error", len(res.Stderr), res.StderrTruncated, shell.MaxCapture)
	}
}

// The capture files on disk never grow past twice the limit while the
// handler prints (they are what survives a timeout): run the embedded
// runner by hand and look at them.
func TestRunnerCaptureFilesBounded(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	handler := filepath.Join(dir, "handler.py")
	if err := os.WriteFile(handler, []byte("import sys\ndef handle(e, c):\n    for _ in range(400):\n        sys.stderr.write('e' * 65536)\n        sys.stdout.write('o' * 65536)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "runner.py")
	if err := os.WriteFile(script, runnerSource, 0o600); err != nil {
		t.Fatal(err)
	}
	req := `{"event_type": "agent:start", "context": {}, "handlers": [{"name": "loud", "path": "` + handler + `"}], "reply": "` + filepath.Join(dir, "reply") + `", "capture": "` + dir + `"}`
	cmd := exec.Command(py, "-B", script, "--run")
	cmd.Stdin = strings.NewReader(req)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("runner: %v\n%s", err, out)
	}
	for name, max := range map[string]int64{"0.out": shell.MaxCapture + 1, "0.err": 2 * shell.MaxCapture} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() > max {
			t.Errorf("%s holds %d bytes of 26 MiB printed; the bound is %d", name, fi.Size(), max)
		}
	}
}
