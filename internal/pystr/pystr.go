// Package pystr reproduces the few Python str behaviours the agent's
// answers depend on: what str.strip() removes, and how text-mode pipes
// decode bytes (UTF-8 with errors="replace", universal newlines).
package pystr

import (
	"strings"
	"unicode/utf8"
)

// IsSpace reports whether Python's str.isspace() is true for r: the
// characters whose bidirectional class is WS, B or S or whose category is
// Zs. Besides Go's unicode.IsSpace this includes U+001C–U+001F; unlike
// Go's it excludes nothing else Python has, and it is a fixed list (Python
// 3.11, Unicode 14), checked against python3 by the package tests.
func IsSpace(r rune) bool {
	switch {
	case r <= 0x7f:
		return r >= '\t' && r <= '\r' || r >= 0x1c && r <= 0x20
	case r == 0x85, r == 0xa0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200a:
		return true
	case r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// Strip is Python's s.strip() with no argument.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// IsBlank reports whether Strip(s) is empty.
func IsBlank(s string) bool { return Strip(s) == "" }

// DecodeText turns bytes read from a hook's pipe into the string Python
// sees in text mode with errors="replace": every invalid UTF-8 sequence
// becomes U+FFFD — one per maximal subpart, as CPython's decoder does (so
// b"\xe2\x82" is one U+FFFD, b"\xff\xfe" two) — and "\r\n" and a lone "\r"
// both become "\n".
func DecodeText(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == '\r':
			sb.WriteByte('\n')
			i++
			if i < len(b) && b[i] == '\n' {
				i++
			}
			continue
		case c < utf8.RuneSelf:
			sb.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[i : i+size])
			i += size
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += invalidLength(b[i:])
	}
	return sb.String()
}

// invalidLength is the length of the maximal subpart of an ill-formed
// sequence at the start of b (Unicode §3.9, "U+FFFD substitution of
// maximal subparts"): the lead byte plus as many following bytes as could
// still begin a well-formed sequence, at least 1.
func invalidLength(b []byte) int {
	lo, hi := byte(0x80), byte(0xbf)
	var need int
	switch c := b[0]; {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c >= 0xe1 && c <= 0xec, c == 0xee, c == 0xef:
		need = 2
	case c == 0xed:
		need, hi = 2, 0x9f
	case c == 0xf0:
		need, lo = 3, 0x90
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	case c == 0xf4:
		need, hi = 3, 0x8f
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return n
}
