package edit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkUpdateFile: one locked edit (lock, stable read, change, temp
// file, re-read, rename) of a config with 200 hooks. settled: the file was
// last written long ago (the usual case); just-written: it changed a moment
// ago, so the edit waits for it to be quiet for 10 ms first.
func BenchmarkUpdateFile(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("model: x\nhooks:\n  pre_tool_call:\n")
	for i := range 200 {
		fmt.Fprintf(&cfg, "    - command: /opt/hooks/h%03d.sh\n      timeout: 10\n", i)
	}
	for _, settled := range []bool{true, false} {
		name := "settled"
		if !settled {
			name = "just-written"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "config.yaml")
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
					b.Fatal(err)
				}
				if settled {
					old := time.Now().Add(-time.Hour)
					os.Chtimes(path, old, old)
				}
				b.StartTimer()
				if _, _, err := UpdateFile(path, Options{}, appendHook("/opt/hooks/new.sh")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
