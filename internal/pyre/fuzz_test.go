package pyre

import "testing"

// FuzzCompile: whatever the pattern, Compile never panics and never hands
// regexp2 a translation it cannot read (an "internal error"), and a
// compiled pattern can be matched. It builds the program at once (compile),
// as Compile leaves that to the first match.
func FuzzCompile(f *testing.F) {
	for _, p := range fixedPatterns {
		f.Add(p, "terminal")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		re, err := compile(pattern)
		if err != nil {
			if e, ok := err.(*Error); !ok || len(e.Msg) > 9 && e.Msg[:9] == "internal " {
				t.Fatalf("Compile(%q): %v", pattern, err)
			}
			return
		}
		_, _ = re.FullMatch(name)
	})
}

// FuzzSimple: whatever simple takes at a glance, Python's parser accepts,
// and its program matches like the one of an eager compile.
func FuzzSimple(f *testing.F) {
	for _, p := range append(fixedPatterns, `a|*`, `()*`, `[-]`, `[--]`, `[\w-]+`, `(a|)+`, `a**`, `[]`, `(()`) {
		f.Add(p, "terminal")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if !simple(pattern) {
			return
		}
		eager, err := compile(pattern)
		if err != nil {
			t.Fatalf("simple(%q) but Python's rules refuse it: %v", pattern, err)
		}
		lazy := &Regexp{src: pattern}
		got, gotErr := lazy.FullMatch(name)
		want, wantErr := eager.FullMatch(name)
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q on %q: lazy %v, %v; eager %v, %v", pattern, name, got, gotErr, want, wantErr)
		}
	})
}
