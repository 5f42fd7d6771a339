package shell

import (
	"math/rand"
	"testing"
)

// MaySplitTo never says no when Split gives the words (it is a filter
// before Split), and says no to commands that differ.
func TestMaySplitTo(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := []byte("ab '\"\\\t\n/x~#$")
	for i := 0; i < 200000; i++ {
		b := make([]byte, r.Intn(12))
		for j := range b {
			b[j] = alphabet[r.Intn(len(alphabet))]
		}
		words, err := Split(string(b))
		if err != nil {
			continue
		}
		if !MaySplitTo(string(b), words) {
			t.Fatalf("MaySplitTo(%q, %q) = false, but Split gives those words", b, words)
		}
	}
	for _, c := range []struct {
		cmd   string
		words []string
	}{
		{"/a/hook-1.sh", []string{"/a/hook-2.sh"}},
		{"/a/hook.sh x", []string{"/a/hook.sh"}},
		{"/a/hook.sh", []string{"/a/hook.sh", "x"}},
	} {
		if MaySplitTo(c.cmd, c.words) {
			t.Errorf("MaySplitTo(%q, %q) = true", c.cmd, c.words)
		}
	}
}
