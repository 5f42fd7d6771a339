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
	switch kind {
	case "numbers":
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			switch i % 3 {
			case 0:
				b.WriteString(strconv.Itoa(i))
			case 1:
				b.WriteString("-1.5e3")
			default:
				b.WriteString("0.25")
			}
		}
		b.WriteByte(']')
	case "literals":
		words := []string{"true", "false", "null", "NaN", "Infinity", "-Infinity"}
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(words[i%len(words)])
		}
		b.WriteByte(']')
	case "strings":
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if i%2 == 0 {
				b.WriteString(`"rm -rf /tmp/x"`)
			} else {
				b.WriteString(`"é\n\u00e9\ud83d\ude00"`)
			}
		}
		b.WriteByte(']')
	case "keys":
		b.WriteByte('{')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		b.WriteByte('}')
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
