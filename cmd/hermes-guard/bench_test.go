//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// BenchmarkProtectedVsBare measures SPEC §17's speed bar with whole
// processes, paired: each iteration runs the bare hook, the protected one
// and the floor (testdata/floor: a Go program that only forks, execs and
// waits) as the agent does (own process group, payload on stdin, stdout
// and stderr read to EOF), and reports the ratios of their total times
// (protected/bare, the bar being 1.5; floor/bare, what any Go program in
// the guard's place costs on this machine).
func BenchmarkProtectedVsBare(b *testing.B) {
	dir := b.TempDir()
	floor := filepath.Join(dir, "floor")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-trimpath", "-ldflags=-s -w", "-o", floor, "./testdata/floor")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the floor: %v\n%s", err, out)
	}
	bench := newBench(b, dir)
	run := func(argv []string) time.Duration { return bench.run(argv, bench.env) }
	run([]string{bench.script})
	run(bench.wrapped)
	var bare, protected, floored time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bare += run([]string{bench.script})
		protected += run(bench.wrapped)
		floored += run([]string{floor, bench.script})
	}
	b.ReportMetric(float64(bare.Microseconds())/float64(b.N), "bare-µs/op")
	b.ReportMetric(float64(protected.Microseconds())/float64(b.N), "protected-µs/op")
	b.ReportMetric(float64(protected)/float64(bare), "protected/bare")
	b.ReportMetric(float64(floored)/float64(bare), "floor/bare")
}

// guardBench is a HERMES_HOME with one protected hook among 50 approvals,
// and the agent's way of running a hook.
type guardBench struct {
	b               *testing.B
	hh, script      string
	wrapped, env    []string
	payload, answer []byte
}

func newBench(b *testing.B, dir string) *guardBench {
	os.Chmod(dir, 0o755)
	hh := filepath.Join(dir, "home", ".hermes")
	if err := os.MkdirAll(hh, 0o700); err != nil {
		b.Fatal(err)
	}
	script := filepath.Join(dir, "hook.sh")
	body := "#!/bin/sh\ncat > /dev/null\necho '{\"action\": \"approve\"}'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		b.Fatal(err)
	}
	wrapped := []string{guardBin, "--event", "pre_tool_call", "--fail-closed", "--", script}
	e := allowlist.NewEntry("pre_tool_call", guardBin+" --event pre_tool_call --fail-closed -- "+script,
		allowlist.ViaProtect, allowlist.FingerprintNow(script), time.Now())
	// An allowlist of a realistic size: the guard reads all of it.
	if _, err := allowlist.Open(hh).Update(func(l *allowlist.List) error {
		for i := 0; i < 50; i++ {
			l.Approve(allowlist.NewEntry("post_tool_call", "/opt/hooks/h"+string(rune('a'+i%26))+".sh", allowlist.ViaAccept, allowlist.FingerprintNow(script), time.Now()))
		}
		l.Approve(e)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return &guardBench{b: b, hh: hh, script: script, wrapped: wrapped,
		env:     []string{"PATH=/usr/bin:/bin", "HOME=" + filepath.Dir(hh), "HERMES_HOME=" + hh},
		payload: []byte(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}}`),
		answer:  []byte("{\"action\": \"approve\"}\n")}
}

// run runs argv as the agent does (own process group, payload on stdin,
// stdout and stderr read to EOF) and returns how long it took.
func (g *guardBench) run(argv, env []string) time.Duration {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdin = env, bytes.NewReader(g.payload)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		g.b.Fatalf("%v: %v\n%s", argv, err, errb.String())
	}
	d := time.Since(start)
	if !bytes.Equal(out.Bytes(), g.answer) {
		g.b.Fatalf("%v printed %q %q", argv, out.String(), errb.String())
	}
	return d
}
