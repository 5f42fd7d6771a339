//go:build linux

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRecordingOnVsOff measures what recording (SPEC §26) adds to a
// protected run, paired: each iteration runs the protected hook with
// HERMES_HOOKS_RECORD=0 and =1 (the guard then reads the payload, hands it
// to the hook on a pipe and stores it, redacted, while the hook runs) and
// reports the ratio of their total times. A config of a realistic size is
// there in both: the guard line-scans it for hooks_record.
func BenchmarkRecordingOnVsOff(b *testing.B) {
	g := newBench(b, b.TempDir())
	config := []byte("model: gpt-4\nhooks_record_max: 64MiB\nhooks:\n")
	for i := 0; i < 50; i++ {
		config = append(config, "  post_tool_call:\n    - command: /opt/hooks/h.sh\n      timeout: 10\n"...)
	}
	if err := os.WriteFile(filepath.Join(g.hh, "config.yaml"), config, 0o600); err != nil {
		b.Fatal(err)
	}
	off := append(g.env[:len(g.env):len(g.env)], "HERMES_HOOKS_RECORD=0", "GITHUB_TOKEN=ghp_bench_secret")
	on := append(g.env[:len(g.env):len(g.env)], "HERMES_HOOKS_RECORD=1", "GITHUB_TOKEN=ghp_bench_secret")
	g.run(g.wrapped, off)
	g.run(g.wrapped, on)
	var tOff, tOn time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tOff += g.run(g.wrapped, off)
		tOn += g.run(g.wrapped, on)
	}
	b.StopTimer()
	if files, _ := filepath.Glob(filepath.Join(g.hh, "logs", "payloads", "*.json")); len(files) < b.N {
		b.Fatalf("%d payloads stored for %d recorded runs", len(files), b.N)
	}
	b.ReportMetric(float64(tOff.Microseconds())/float64(b.N), "off-µs/op")
	b.ReportMetric(float64(tOn.Microseconds())/float64(b.N), "on-µs/op")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
}
