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

// BenchmarkValidJSON validates allowlist-shaped text of 10k, 100k and 1M
// elements: plain entries, numbers, and one string of that many escapes
// (each escape once re-searched for the closing quote, so a 1 MB string
// of \n cost 10¹¹ byte reads). ns/elem must stay flat.
func BenchmarkValidJSON(b *testing.B) {
	for _, kind := range []string{"numbers", "escapes", "nested"} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			var doc string
			switch kind {
			case "numbers":
				doc = `{"approvals": [` + strings.Repeat(`1.5e3, true, null, `, n/3) + `0]}`
			case "escapes":
				doc = `{"approvals": ["` + strings.Repeat(`\n`, n) + `"]}`
			case "nested":
				// 25 levels deep (50 elements), repeated.
				chunk := strings.Repeat(`{"a":[`, 25) + `1` + strings.Repeat(`]}`, 25)
				doc = `{"approvals": [` + strings.Repeat(chunk+`,`, n/50) + `0]}`
			}
			data := []byte(doc)
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for i := 0; i < b.N; i++ {
					if !validJSON(data) {
						b.Fatal("refused")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
	}
}
