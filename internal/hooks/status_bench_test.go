package hooks

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkInspectSharedLargeScript: 50 approved hooks (different
// arguments) share one 32 MiB script. One invocation hashes the script once
// (the Fingerprinter cache), so inspecting all 50 costs about one hash, not
// 50. The "uncached" case gives every hook a fresh Setup, i.e. what a
// per-hook hash would cost.
func BenchmarkInspectSharedLargeScript(b *testing.B) {
	const hooksN = 50
	script := "#!/bin/sh\ncat >/dev/null\n# " + strings.Repeat("x", 32<<20) + "\n"
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  on_session_start:\n")
	for i := range hooksN {
		fmt.Fprintf(&cfg, "    - command: \"~/big.sh --n %d\"\n", i)
	}
	h := newTrustHome(b, cfg.String(), map[string]string{"big.sh": script})
	h.approveAll()
	b.Run("cached-per-invocation", func(b *testing.B) {
		for b.Loop() {
			s, list := h.load()
			for _, sh := range s.ShellHooks(list) {
				if sh.Drift != "unchanged" {
					b.Fatalf("drift %q", sh.Drift)
				}
			}
		}
		b.ReportMetric(hooksN, "hooks/op")
	})
	b.Run("uncached", func(b *testing.B) {
		s, list := h.load()
		for b.Loop() {
			for _, spec := range s.Parsed.Specs {
				fresh, _ := h.load()
				fresh.Inspect(spec, list)
			}
		}
		b.ReportMetric(hooksN, "hooks/op")
	})
}
