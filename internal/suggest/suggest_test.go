package suggest

import (
	"strings"
	"testing"
)

// Values from Python 3.11: difflib.SequenceMatcher(None, a, b).ratio().
func TestSequenceMatcherRatio(t *testing.T) {
	han := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteRune(rune(0x4e00 + i))
		}
		return b.String()
	}
	u := han(220)
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"pre_tol_call", "pre_tool_call", 0.96},
		{"agent:strat", "agent:start", 0.9090909090909091},
		{"zzz", "pre_tool_call", 0.0},
		{"", "", 1.0},
		{"abc", "", 0.0},
		{"abcd", "bcde", 0.75},
		{"agent", "agent:end", 0.7142857142857143},
		{"qabxcd", "abycdf", 0.6666666666666666},
		{"private Thread currentThread;", "private volatile Thread currentThread;", 0.8656716417910447},
		{"héllo", "hello", 0.8}, // code points, not bytes
		// b of 200+ elements: autojunk drops popular elements from the index.
		{strings.Repeat("a", 150) + strings.Repeat("b", 100), strings.Repeat("b", 100) + strings.Repeat("a", 150), 0.0},
		{strings.Repeat("ab", 120), strings.Repeat("ba", 110) + strings.Repeat("c", 30), 0.0},
		// ...but they still extend a match found around them.
		{"aaaaa" + u[:len(han(100))] + "aa" + u[len(han(100)):] + "aaa", u + strings.Repeat("a", 30), 0.9291666666666667},
	} {
		m, a := newMatcher([]rune(tc.b)), []rune(tc.a)
		got := m.ratio(a)
		if got != tc.want {
			t.Errorf("ratio(%.20q, %.20q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		// The pre-checks Closest uses must never reject a close match.
		if q, rq := m.quickRatio(a), m.realQuickRatio(a); q < got || rq < q {
			t.Errorf("bounds of (%.20q, %.20q): realQuick %v, quick %v, ratio %v", tc.a, tc.b, rq, q, got)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"matchr", "matcher", 1}, {"timout", "timeout", 1},
		{"tiemout", "timeout", 2}, {"abc", "", 3}, {"é", "e", 1}, {"kitten", "sitting", 3},
	} {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
