package hookspec

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

var asciiIntString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[+-]?[0-9]+(?:_[0-9]+)*$`) })

// pythonIntString reads s as Python's int(s) does (base 10): any Unicode
// decimal digit counts ("٣" is 3, "１０" is 10), underscores may separate
// digits, and surrounding white space is ignored — ASCII space, tab and
// line breaks, and the non-ASCII spaces of str.isspace(), but not
// \x1c–\x1f, which CPython passes through as they are. Results saturate
// at the int64 range, far past any clamp.
func pythonIntString(s string) (int64, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < 127:
			b.WriteRune(r)
		case isPySpace(r):
			b.WriteByte(' ')
		default:
			d := decimalValue(r)
			if d < 0 {
				return 0, false
			}
			b.WriteByte(byte('0' + d))
		}
	}
	t := strings.Trim(b.String(), " \t\n\v\f\r")
	if !asciiIntString().MatchString(t) {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.ReplaceAll(t, "_", ""), 10, 64)
	if err != nil { // only a range error is possible here
		if strings.HasPrefix(t, "-") {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	}
	return n, true
}

// isPySpace reports the non-ASCII characters Python's str.isspace() accepts.
func isPySpace(r rune) bool {
	switch {
	case r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// decimalValue is the value of a Unicode decimal digit (category Nd), or
// -1. Nd digits come in runs of ten from 0 to 9, so a digit's value is
// its distance from the start of its run.
func decimalValue(r rune) int {
	if !unicode.Is(unicode.Nd, r) {
		return -1
	}
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return -1
}
