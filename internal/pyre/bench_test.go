package pyre

import (
	"regexp"
	"testing"
)

// BenchmarkCompile compares compiling a matcher (uncached: parse, emit,
// regexp2) with compiling it as RE2, the engine matchers used before.
func BenchmarkCompile(b *testing.B) {
	for _, src := range []string{`terminal|patch|write_file`, `mcp__[\w-]+__create_\w+`, `read_.*`, `(?i)web_(search|fetch)`} {
		b.Run(src+"/python", func(b *testing.B) {
			for b.Loop() {
				if _, err := compile(src); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(src+"/re2", func(b *testing.B) {
			for b.Loop() {
				regexp.MustCompile(`^(?:` + src + `)$`)
			}
		})
	}
}
