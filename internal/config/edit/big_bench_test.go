package edit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
)

// The sizes of SPEC §29 item 2, reduced for make bench: every edit must be
// linear in the config, so ns/hook (or ns/key) stays about constant from
// one size to the next ten times larger.

func hooksConfig(n int) []byte {
	var b strings.Builder
	b.WriteString("model: x\nhooks:\n  pre_tool_call:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - command: /opt/hooks/h.sh %07d\n      timeout: 10\n", i)
	}
	return []byte(b.String())
}

// BenchmarkReplaceAll rewrites every hook's command (protect --all).
func BenchmarkReplaceAll(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("hooks=%d", n), func(b *testing.B) {
			src := hooksConfig(n)
			b.ResetTimer()
			for range b.N {
				d, err := Parse(src)
				if err != nil {
					b.Fatal(err)
				}
				_, c, err := d.Replace([]string{"hooks"}, "command", func(_ string, _ int, old string) (string, bool) {
					return "/usr/bin/hermes-guard --event pre_tool_call -- " + old, true
				})
				if err != nil || c != n {
					b.Fatalf("%d changed, %v", c, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
		})
	}
}

// BenchmarkAppendBigMapping adds one hook to a config with a mapping of n
// keys (the yaml.v3 decoding the check used compared every key with every
// other).
func BenchmarkAppendBigMapping(b *testing.B) {
	for _, n := range []int{4800, 48000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			var s strings.Builder
			s.WriteString("model: x\nnotes:\n")
			for i := range n {
				fmt.Fprintf(&s, "  k%07d: value %d\n", i, i)
			}
			s.WriteString("hooks:\n  pre_tool_call:\n    - command: /opt/a.sh\n")
			src := []byte(s.String())
			b.ResetTimer()
			for range b.N {
				d, err := Parse(src)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := d.Append([]string{"hooks", "pre_tool_call"}, []Field{{Key: "command", Value: "/opt/new.sh"}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}

// BenchmarkLoadCountParseAppend is the parsing an add does before it
// checks its result: the config's load, the stable read's count and the
// edit's parse, of the same bytes. shared=true is how an add runs (one
// parse handed on from the load); shared=false parses at each step, as
// before SPEC §29 item 2's fourth round.
func BenchmarkLoadCountParseAppend(b *testing.B) {
	const n = 10000
	src := hooksConfig(n)
	path := filepath.Join(b.TempDir(), "config.yaml")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		b.Fatal(err)
	}
	for _, shared := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", shared), func(b *testing.B) {
			forget := func() {
				if !shared {
					config.OfferDecoding(nil)
				}
			}
			defer config.OfferDecoding(nil)
			for range b.N {
				if _, err := config.Load(path, nil); err != nil {
					b.Fatal(err)
				}
				forget()
				if _, ok := countSettings(src); !ok {
					b.Fatal("not counted")
				}
				forget()
				d, err := Parse(src)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := d.Append([]string{"hooks", "pre_tool_call"}, []Field{{Key: "command", Value: "/opt/new.sh"}}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/hook")
		})
	}
}
