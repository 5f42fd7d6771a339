package hookspec

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
)

// BenchmarkParse is reading the hooks block of a 1,000-hook config (each
// hook with its own matcher, as in BenchmarkList), after the YAML is read:
// the part of loading that is this package's.
func BenchmarkParse(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&cfg, "    - command: \"/h/hook%d.sh --n %d\"\n      matcher: \"terminal_%d|mcp__srv%d__\\\\w+\"\n      timeout: 10\n", i%10, i, i, i)
	}
	path := filepath.Join(b.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	file, err := config.Load(path, config.MapEnv(nil))
	if err != nil {
		b.Fatal(err)
	}
	cat := catalog.NewCatalogue(nil)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p := Parse(file, cat, config.MapEnv(nil)); len(p.Specs) != 1000 {
			b.Fatalf("%d specs", len(p.Specs))
		}
	}
}
