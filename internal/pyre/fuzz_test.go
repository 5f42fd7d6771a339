package pyre

import "testing"

// FuzzCompile: whatever the pattern, Compile never panics and never hands
// regexp2 a translation it cannot read (an "internal error"), and a
// compiled pattern can be matched.
func FuzzCompile(f *testing.F) {
	for _, p := range fixedPatterns {
		f.Add(p, "terminal")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		re, err := Compile(pattern)
		if err != nil {
			if e, ok := err.(*Error); !ok || len(e.Msg) > 9 && e.Msg[:9] == "internal " {
				t.Fatalf("Compile(%q): %v", pattern, err)
			}
			return
		}
		_, _ = re.FullMatch(name)
	})
}
