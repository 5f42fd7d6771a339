package allowlist

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkFindFirst is the guard's lookup in an allowlist of 100,000
// entries (about 33 MB), its own entry last (SPEC §29 item 3).
func BenchmarkFindFirst(b *testing.B) {
	hh := b.TempDir()
	var buf bytes.Buffer
	buf.WriteString("{\n  \"approvals\": [\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&buf, "    {\n      \"approved_at\": \"2026-11-28T09:00:00.123456Z\",\n      \"approved_via\": \"protect\",\n      \"command\": \"/usr/local/bin/hermes-guard --event pre_tool_call -- /home/u/.hermes/hooks/h-%06d.sh\",\n      \"event\": \"pre_tool_call\",\n      \"script_sha256_at_approval\": \"%064x\"\n    },\n", i, i)
	}
	buf.WriteString("    {\"event\": \"pre_tool_call\", \"command\": \"/g -- /x.sh\", \"script_sha256_at_approval\": \"ab\"}\n  ]\n}\n")
	os.WriteFile(filepath.Join(hh, FileName), buf.Bytes(), 0o600)
	s := Open(hh)
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l, _, err := s.FindFirst("pre_tool_call", func(c string) bool { return c == "/g -- /x.sh" })
		if err != nil || len(l.Approvals) != 1 {
			b.Fatalf("%v %v", l, err)
		}
	}
}
