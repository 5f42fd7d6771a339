package audit

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// writeBigLog fills a log of about size bytes with a realistic mix: 40
// hooks, run-event and guard lines, blocks, contexts, failures, refusals.
func writeBigLog(b *testing.B, home string, size int64) int {
	b.Helper()
	path := Path(home)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	var written int64
	for written < size {
		var line string
		cmd := fmt.Sprintf("~/.hermes/agent-hooks/hook-%02d.sh --flag", n%40)
		ts := at.Add(time.Duration(n) * time.Second).Format(time.RFC3339Nano)
		switch n % 10 {
		case 0:
			line = fmt.Sprintf(`{"time":%q,"event":"pre_tool_call","kind":"shell","command":%q,"sha256":"4f6c2b1e9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b","exit_code":2,"timed_out":false,"error":null,"elapsed_seconds":0.031,"parsed":{"action":"block","message":"rm -rf is not allowed here"},"via":"run-event"}`, ts, cmd)
		case 1:
			line = fmt.Sprintf(`{"time":%q,"event":"pre_tool_call","kind":"shell","command":%q,"sha256":null,"exit_code":null,"timed_out":false,"error":null,"elapsed_seconds":0,"parsed":null,"via":"exec","pid":4242,"status":"refused","refusal":"script modified since approval","answer":"none"}`, ts, cmd)
		case 2:
			line = fmt.Sprintf(`{"time":%q,"event":"pre_llm_call","kind":"shell","command":%q,"sha256":"4f6c2b1e9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b","exit_code":0,"timed_out":false,"error":null,"elapsed_seconds":0.120,"parsed":{"context":"The repository uses tabs; run make test before committing."},"via":"exec","pid":4243,"status":"ran","answer":"context"}`, ts, cmd)
		default:
			line = fmt.Sprintf(`{"time":%q,"event":"post_tool_call","kind":"shell","command":%q,"sha256":"4f6c2b1e9a8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b","exit_code":%d,"timed_out":false,"error":null,"elapsed_seconds":0.%03d,"parsed":null,"via":"exec","pid":4244,"status":"ran","answer":"none"}`, ts, cmd, n%7/6, n%997)
		}
		k, _ := w.WriteString(line + "\n")
		written += int64(k)
		n++
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return n
}

// BenchmarkStats16MiB: what `hermes hooks stats` does over a full log
// (one file at the rotation size): read, parse and sum every line.
func BenchmarkStats16MiB(b *testing.B) {
	home := b.TempDir()
	n := writeBigLog(b, home, RotateSize)
	b.SetBytes(RotateSize)
	for b.Loop() {
		s := NewStats()
		if _, err := ReadAll(Path(home), func(l Line) error { s.Add(&l); return nil }); err != nil {
			b.Fatal(err)
		}
		if len(s.Hooks()) != 40 {
			b.Fatalf("%d hooks", len(s.Hooks()))
		}
	}
	b.ReportMetric(float64(n), "lines")
}

// BenchmarkAppend: one audit line, as the guard pays on every tool call
// (lock, open, size check, one write, close).
func BenchmarkAppend(b *testing.B) {
	home := b.TempDir()
	r := rec("~/.hermes/agent-hooks/guard.sh --strict")
	for b.Loop() {
		if err := Append(home, r); err != nil {
			b.Fatal(err)
		}
	}
}
