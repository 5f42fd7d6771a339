package shell

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzSplit checks that Split never panics and that its words survive a
// round trip: quoting each word with Quote (shlex.quote) and splitting the
// joined result gives the same words back.
func FuzzSplit(f *testing.F) {
	for _, tc := range splitCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Split(s)
		if err != nil {
			return
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = Quote(w)
		}
		again, err := Split(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("Split(%q) = %q, but re-splitting the quoted words failed: %v", s, words, err)
		}
		if len(again) == 0 && len(words) == 0 {
			return
		}
		if !reflect.DeepEqual(again, words) {
			t.Fatalf("Split(%q) = %q, but the quoted words split into %q", s, words, again)
		}
	})
}
