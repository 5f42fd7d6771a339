package hookspec

import (
	"regexp"
	"testing"
)

// benchMatchers are typical matchers; RE2 (the engine before SPEC §14) is
// the baseline, as ^(?:src)$ with the standard library. Compiling is
// compared in internal/pyre (BenchmarkCompile).
var benchMatchers = []struct{ name, src, tool string }{
	{"alternation", `terminal|patch|write_file`, "write_file"},
	{"word_class", `mcp__[\w-]+__create_\w+`, "mcp__github__create_issue"},
	{"prefix", `read_.*`, "read_file"},
}

func BenchmarkMatcherMatch(b *testing.B) {
	for _, m := range benchMatchers {
		pm, _ := CompileMatcher(m.src)
		re := regexp.MustCompile(`^(?:` + m.src + `)$`)
		b.Run(m.name+"/python", func(b *testing.B) {
			for b.Loop() {
				if !pm.Match(m.tool) {
					b.Fatal("no match")
				}
			}
		})
		b.Run(m.name+"/re2", func(b *testing.B) {
			for b.Loop() {
				if !re.MatchString(m.tool) {
					b.Fatal("no match")
				}
			}
		})
	}
	// The look-ahead RE2 could not run at all.
	pm, _ := CompileMatcher(`(?!read_file$).*`)
	b.Run("negative_lookahead/python", func(b *testing.B) {
		for b.Loop() {
			pm.Match("terminal")
		}
	})
}
