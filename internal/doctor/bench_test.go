package doctor

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// BenchmarkDoctor: 20 approved hooks whose smoke run sleeps 0.3 s (6 s in
// sequence), checked with smoke runs bounded by the number of CPUs against
// one at a time. Run with: go test ./internal/hooks -run '^$' -bench Doctor -benchtime 3x
func BenchmarkDoctor(b *testing.B) {
	const hooksN, sleep = 20, "0.3"
	scripts := map[string]string{}
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  on_session_start:\n")
	for i := range hooksN {
		name := fmt.Sprintf("sleep%02d.sh", i)
		scripts[name] = "#!/bin/sh\ncat >/dev/null\nsleep " + sleep + "\n"
		fmt.Fprintf(&cfg, "    - command: \"~/%s\"\n", name)
	}
	h := newTestHome(b, cfg.String(), scripts)
	h.approveAll()
	for _, parallel := range []int{runtime.NumCPU(), 1} {
		b.Run(fmt.Sprintf("parallel=%d", parallel), func(b *testing.B) {
			s, list := h.load()
			e := &hooks.Engine{Setup: s, Runner: shell.Exec{}, Environ: []string{"PATH=/usr/bin:/bin"}, Cwd: s.Loc.Home, Now: time.Now}
			for b.Loop() {
				for _, r := range Run(context.Background(), e, list, Options{Parallel: parallel}) {
					if r.Problems() > 0 {
						b.Fatalf("%s: %+v", r.Spec.Shown(), r.Checks)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(hooksN*0.3e9), "x_sequential_sleep")
		})
	}
}
