//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/proctest"
)

// benchLab is a HERMES_HOME, a hook and the floor wrapper for the
// whole-process benchmarks.
type benchLab struct {
	b       *testing.B
	dir, hh string
	floor   string
	env     []string
}

func newBenchLab(b *testing.B) *benchLab {
	dir := b.TempDir()
	floor := filepath.Join(dir, "floor")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-trimpath", "-ldflags=-s -w", "-o", floor, "./testdata/floor")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the floor: %v\n%s", err, out)
	}
	if err := proctest.Land(floor); err != nil {
		b.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	hh := filepath.Join(dir, "home", ".hermes")
	if err := os.MkdirAll(hh, 0o700); err != nil {
		b.Fatal(err)
	}
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + filepath.Dir(hh), "HERMES_HOME=" + hh}
	return &benchLab{b: b, dir: dir, hh: hh, floor: floor, env: env}
}

// hook writes the script and approves its protected form next to extra
// other entries (the guard reads all of them); it returns the bare and the
// wrapped argv.
func (l *benchLab) hook(name string, body []byte, extra int) (bare, wrapped []string) {
	script := filepath.Join(l.dir, name)
	if err := os.WriteFile(script, body, 0o755); err != nil {
		l.b.Fatal(err)
	}
	wrapped = []string{guardBin, "--event", "pre_tool_call", "--fail-closed", "--", script}
	e := allowlist.NewEntry("pre_tool_call", strings.Join(wrapped, " "), allowlist.ViaProtect, allowlist.FingerprintNow(script), time.Now())
	writeAllowlist(l.b, l.hh, extra, e)
	return []string{script}, wrapped
}

// writeAllowlist writes an allowlist of n entries like protect's (about
// 330 bytes each, as a user's would be) with e last, the worst place.
func writeAllowlist(b *testing.B, hh string, n int, e allowlist.Entry) {
	var buf bytes.Buffer
	buf.WriteString("{\n  \"approvals\": [\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&buf, `    {
      "approved_at": "2026-11-28T09:00:00.123456Z",
      "approved_via": "protect",
      "command": "/usr/local/bin/hermes-guard --event pre_tool_call --fail-closed -- /home/someone/.hermes/agent-hooks/hook-%06d.sh",
      "event": "pre_tool_call",
      "script_mtime_at_approval": "2026-11-28T08:59:00.654321Z",
      "script_sha256_at_approval": "%064x"
    },
`, i, i)
	}
	fmt.Fprintf(&buf, `    {
      "approved_at": %q,
      "approved_via": %q,
      "command": %q,
      "event": %q,
      "script_mtime_at_approval": %q,
      "script_sha256_at_approval": %q
    }
  ]
}`, e.ApprovedAt, e.ApprovedVia, e.Command, e.Event, *e.ScriptMtime, e.ScriptSHA256)
	if err := os.WriteFile(filepath.Join(hh, allowlist.FileName), buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
}

var benchPayload = []byte(`{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}}`)

// run runs argv as the agent does (own process group, payload on stdin,
// stdout and stderr read to EOF) and returns its wall time.
func (l *benchLab) run(argv []string, want string) time.Duration {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Stdin = l.env, bytes.NewReader(benchPayload)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		l.b.Fatalf("%v: %v\n%s", argv, err, errb.String())
	}
	d := time.Since(start)
	if out.String() != want {
		l.b.Fatalf("%v printed %q %q", argv, out.String(), errb.String())
	}
	return d
}

// BenchmarkProtectedVsBare measures SPEC §24 item 10's speed bars with
// whole processes, paired: each iteration runs the bare hook, the
// protected one and the floor (testdata/floor: a Go program that only
// forks, execs and waits) as the agent does, and reports the ratios of
// their total times: protected/floor (bar 1.15 for the trivial hook) and
// protected/bare (bar 1.06 for the bash + jq block-rm-rf.sh).
func BenchmarkProtectedVsBare(b *testing.B) {
	hooks := []struct {
		name string
		body func() []byte
	}{
		{"trivial", func() []byte { return []byte("#!/bin/sh\ncat > /dev/null\necho '{\"action\": \"approve\"}'\n") }},
		{"block-rm-rf", func() []byte {
			if _, err := exec.LookPath("jq"); err != nil {
				b.Skip("jq not found: block-rm-rf.sh needs it")
			}
			body, err := os.ReadFile("testdata/block-rm-rf.sh")
			if err != nil {
				b.Fatal(err)
			}
			return body
		}},
	}
	for _, h := range hooks {
		b.Run(h.name, func(b *testing.B) {
			l := newBenchLab(b)
			bare, wrapped := l.hook(h.name+".sh", h.body(), 50)
			want := ""
			if h.name == "trivial" {
				want = "{\"action\": \"approve\"}\n"
			}
			floor := append([]string{l.floor}, bare...)
			l.run(bare, want)
			l.run(wrapped, want)
			l.run(floor, want)
			var tb, tp, tf time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tb += l.run(bare, want)
				tp += l.run(wrapped, want)
				tf += l.run(floor, want)
			}
			b.ReportMetric(float64(tb.Microseconds())/float64(b.N), "bare-µs/op")
			b.ReportMetric(float64(tp.Microseconds())/float64(b.N), "protected-µs/op")
			b.ReportMetric(float64(tf.Microseconds())/float64(b.N), "floor-µs/op")
			b.ReportMetric(float64(tp)/float64(tb), "protected/bare")
			b.ReportMetric(float64(tp)/float64(tf), "protected/floor")
		})
	}
}

// BenchmarkAllowlistSize measures SPEC §29 item 3: a protected firing of a
// trivial hook with 1, 10,000 and 100,000 allowlist entries (its own
// last); the bar is at most 30 ms more at 100,000 than at 1.
func BenchmarkAllowlistSize(b *testing.B) {
	for _, n := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n+1), func(b *testing.B) {
			l := newBenchLab(b)
			_, wrapped := l.hook("hook.sh", []byte("#!/bin/sh\ncat > /dev/null\necho '{\"action\": \"approve\"}'\n"), n)
			want := "{\"action\": \"approve\"}\n"
			l.run(wrapped, want)
			var t time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t += l.run(wrapped, want)
			}
			b.ReportMetric(float64(t.Microseconds())/float64(b.N)/1000, "ms/firing")
		})
	}
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
