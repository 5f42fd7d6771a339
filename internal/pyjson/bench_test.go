package pyjson

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// benchDoc builds a document of n elements of one kind, the shapes a hook
// answer, a payload or an allowlist can take at their largest.
func benchDoc(kind string, n int) []byte {
	var b strings.Builder
	// each writes open, the n items item(i) writes separated by sep, close.
	each := func(open, sep, close string, item func(i int)) {
		b.WriteString(open)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(sep)
			}
			item(i)
		}
		b.WriteString(close)
	}
	switch kind {
	case "numbers":
		each("[", ",", "]", func(i int) {
			b.WriteString([]string{strconv.Itoa(i), "-1.5e3", "0.25"}[i%3])
		})
	case "literals":
		words := []string{"true", "false", "null", "NaN", "Infinity", "-Infinity"}
		each("[", ", ", "]", func(i int) { b.WriteString(words[i%len(words)]) })
	case "strings":
		each("[", ",", "]", func(i int) {
			b.WriteString([]string{`"rm -rf /tmp/x"`, `"é\n\u00e9\ud83d\ude00"`}[i%2])
		})
	case "keys":
		each("{", ",", "}", func(i int) { fmt.Fprintf(&b, `"k%d":%d`, i, i) })
	case "nested":
		// n elements in objects of lists, nested 8 deep and repeated.
		const depth = 8
		b.WriteByte('[')
		for i := 0; i < n/depth; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			for j := 0; j < depth; j++ {
				b.WriteString(`{"a":[`)
			}
			b.WriteString("1")
			for j := 0; j < depth; j++ {
				b.WriteString(`]}`)
			}
		}
		b.WriteByte(']')
	}
	return []byte(b.String())
}

// BenchmarkDecode reads documents of 10k, 100k and 1M elements of each
// kind; ns/elem must stay flat as the size grows (SPEC §22: every parser
// is linear).
func BenchmarkDecode(b *testing.B) {
	for _, kind := range []string{"numbers", "literals", "strings", "keys", "nested"} {
		for _, n := range []int{10_000, 100_000, 1_000_000} {
			doc := benchDoc(kind, n)
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				b.SetBytes(int64(len(doc)))
				for i := 0; i < b.N; i++ {
					if _, err := Decode(doc); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
			})
		}
	}
}
