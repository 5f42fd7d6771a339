package allowlist

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// writeEntries writes an allowlist of n entries as the agent would.
func writeEntries(b *testing.B, n int) *Store {
	b.Helper()
	s := Open(b.TempDir())
	l := &List{}
	for i := range n {
		e := NewEntry("pre_tool_call", fmt.Sprintf("~/.hermes/agent-hooks/hook-%05d.sh --flag", i), ViaAccept,
			Fingerprint{SHA256: strings.Repeat("ab", 32), Mtime: fixedNow}, fixedNow)
		l.Approvals = append(l.Approvals, e)
	}
	if err := os.WriteFile(s.Path, l.encode(), 0o600); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkReadIndex10k: what list pays for the allowlist with 10,000
// entries and 1,000 hooks looked up.
func BenchmarkReadIndex10k(b *testing.B) {
	s := writeEntries(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		l, _, err := s.Read()
		if err != nil {
			b.Fatal(err)
		}
		for i := range 1000 {
			if _, ok := l.Find("pre_tool_call", fmt.Sprintf("~/.hermes/agent-hooks/hook-%05d.sh --flag", i*10)); !ok {
				b.Fatal("not found")
			}
		}
	}
}

// BenchmarkUpdate10k: one approval into a 10,000-entry file (lock, read,
// write, fsync).
func BenchmarkUpdate10k(b *testing.B) {
	s := writeEntries(b, 10000)
	for b.Loop() {
		if _, err := s.Update(func(l *List) error {
			l.Approve(Entry{Event: "pre_tool_call", Command: "new.sh"})
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
