package pyre

import (
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/hermes-hooks/hermes/internal/pystr"
	"golang.org/x/text/unicode/runenames"
)

// runeSet is a set of code points as sorted, non-overlapping, non-adjacent
// inclusive ranges [lo0, hi0, lo1, hi1, ...].
type runeSet []rune

func (s runeSet) add(lo, hi rune) runeSet { return append(s, lo, hi) }

// norm sorts and merges the ranges.
func (s runeSet) norm() runeSet {
	type r struct{ lo, hi rune }
	rs := make([]r, 0, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		rs = append(rs, r{s[i], s[i+1]})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
	out := runeSet{}
	for _, x := range rs {
		if n := len(out); n > 0 && x.lo <= out[n-1]+1 {
			if x.hi > out[n-1] {
				out[n-1] = x.hi
			}
			continue
		}
		out = append(out, x.lo, x.hi)
	}
	return out
}

func (s runeSet) negate() runeSet {
	out := runeSet{}
	next := rune(0)
	for i := 0; i < len(s); i += 2 {
		if s[i] > next {
			out = append(out, next, s[i]-1)
		}
		next = s[i+1] + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, next, unicode.MaxRune)
	}
	return out
}

func (s runeSet) contains(r rune) bool {
	for i := 0; i < len(s); i += 2 {
		if r >= s[i] && r <= s[i+1] {
			return true
		}
	}
	return false
}

func fromTables(tables ...*unicode.RangeTable) runeSet {
	var s runeSet
	for _, t := range tables {
		for _, r := range t.R16 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				if r.Stride == 1 {
					s = s.add(rune(r.Lo), rune(r.Hi))
					break
				}
				s = s.add(c, c)
			}
		}
		for _, r := range t.R32 {
			for c := rune(r.Lo); c <= rune(r.Hi); c += rune(r.Stride) {
				if r.Stride == 1 {
					s = s.add(rune(r.Lo), rune(r.Hi))
					break
				}
				s = s.add(c, c)
			}
		}
	}
	return s.norm()
}

// The categories of Python's re for str patterns. Unicode: \d is
// str.isdecimal (Nd), \w is str.isalnum or "_" (letters and numbers), \s
// is str.isspace. ASCII (re.A): [0-9], [a-zA-Z0-9_], [ \t\n\r\f\v].
// Go's Unicode tables are a version newer than Python 3.11's (15 vs 14):
// characters added in Unicode 15 are letters and digits here and not there.
var categories = sync.OnceValue(func() map[string]runeSet {
	var space runeSet
	for r := rune(0); r <= 0x3000; r++ {
		if pystr.IsSpace(r) {
			space = space.add(r, r)
		}
	}
	return map[string]runeSet{
		"d":  fromTables(unicode.Nd),
		"w":  append(fromTables(unicode.L, unicode.N), '_', '_').norm(),
		"s":  space.norm(),
		"ad": runeSet{'0', '9'},
		"aw": runeSet{'0', '9', 'A', 'Z', '_', '_', 'a', 'z'},
		"as": runeSet{'\t', '\r', ' ', ' '},
	}
})

func categorySet(c *category, ascii bool) runeSet {
	key := string(c.class)
	if ascii {
		key = "a" + key
	}
	s := categories()[key]
	if c.neg {
		return s.negate()
	}
	return s
}

// extraCases are re._casefix._EXTRA_CASES (Python 3.11): lower-case
// characters that also match each other under IGNORECASE though their
// lower-case forms differ.
var extraCases = map[rune][]rune{
	0x69: {0x131}, 0x73: {0x17f}, 0xb5: {0x3bc}, 0x131: {0x69}, 0x17f: {0x73},
	0x345: {0x3b9, 0x1fbe}, 0x390: {0x1fd3}, 0x3b0: {0x1fe3}, 0x3b2: {0x3d0},
	0x3b5: {0x3f5}, 0x3b8: {0x3d1}, 0x3b9: {0x345, 0x1fbe}, 0x3ba: {0x3f0},
	0x3bc: {0xb5}, 0x3c0: {0x3d6}, 0x3c1: {0x3f1}, 0x3c2: {0x3c3}, 0x3c3: {0x3c2},
	0x3c6: {0x3d5}, 0x3d0: {0x3b2}, 0x3d1: {0x3b8}, 0x3d5: {0x3c6}, 0x3d6: {0x3c0},
	0x3f0: {0x3ba}, 0x3f1: {0x3c1}, 0x3f5: {0x3b5}, 0x432: {0x1c80}, 0x434: {0x1c81},
	0x43e: {0x1c82}, 0x441: {0x1c83}, 0x442: {0x1c84, 0x1c85}, 0x44a: {0x1c86},
	0x463: {0x1c87}, 0x1c80: {0x432}, 0x1c81: {0x434}, 0x1c82: {0x43e},
	0x1c83: {0x441}, 0x1c84: {0x442, 0x1c85}, 0x1c85: {0x442, 0x1c84},
	0x1c86: {0x44a}, 0x1c87: {0x463}, 0x1c88: {0xa64b}, 0x1e61: {0x1e9b},
	0x1e9b: {0x1e61}, 0x1fbe: {0x345, 0x3b9}, 0x1fd3: {0x390}, 0x1fe3: {0x3b0},
	0xa64b: {0x1c88}, 0xfb05: {0xfb06}, 0xfb06: {0xfb05},
}

// lowerInverse maps a character to the others whose simple lower-case
// form it is (K → k and K, the Kelvin sign), from Go's case tables.
var lowerInverse = sync.OnceValue(func() map[rune][]rune {
	inv := map[rune][]rune{}
	for _, cr := range unicode.CaseRanges {
		for r := rune(cr.Lo); r <= rune(cr.Hi); r++ {
			if l := unicode.ToLower(r); l != r {
				inv[l] = append(inv[l], r)
			}
		}
	}
	return inv
})

// isCased is _sre.unicode_iscased.
func isCased(r rune) bool { return r != unicode.ToLower(r) || r != unicode.ToUpper(r) }

// foldSet widens s to what IGNORECASE matches: Python compares lower-case
// forms (plus extraCases), so x matches when lower(x) is the lower-case
// form of a member. With ascii (re.A) only ASCII letters fold.
func foldSet(s runeSet, ascii bool) runeSet {
	out := append(runeSet{}, s...)
	if ascii {
		for i := 0; i < len(s); i += 2 {
			for c := max(s[i], 'A'); c <= min(s[i+1], 'z'); c++ {
				if c <= 'Z' || c >= 'a' {
					out = out.add(c^0x20, c^0x20)
				}
			}
		}
		return out.norm()
	}
	inv := lowerInverse()
	addFold := func(r rune) {
		lo := unicode.ToLower(r)
		targets := append([]rune{lo}, extraCases[lo]...)
		for _, t := range targets {
			out = out.add(t, t)
			for _, x := range inv[t] {
				out = out.add(x, x)
			}
		}
	}
	if len(s) == 2 && s[0] == s[1] { // one character: the common case
		if isCased(s[0]) || extraCases[s[0]] != nil {
			addFold(s[0])
		}
		return out.norm()
	}
	// Only cased characters fold, and they all lie in Go's case ranges.
	for _, cr := range unicode.CaseRanges {
		lo, hi := rune(cr.Lo), rune(cr.Hi)
		for i := 0; i < len(s); i += 2 {
			for c := max(lo, s[i]); c <= min(hi, s[i+1]); c++ {
				if isCased(c) {
					addFold(c)
				}
			}
		}
	}
	for r := range extraCases {
		if s.contains(r) {
			addFold(r)
		}
	}
	return out.norm()
}

// nameIndex maps upper-case Unicode character names to characters, for
// \N{...}; built on first use.
var nameIndex = sync.OnceValue(func() map[string]rune {
	m := map[string]rune{}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xd800 && r <= 0xdfff {
			continue
		}
		if n := runenames.Name(r); n != "" && !strings.HasPrefix(n, "<") {
			m[n] = r
		}
	}
	return m
})

// lookupName is unicodedata.lookup for single characters (names compared
// without regard to case; the name aliases of Python's table are not
// known here).
func lookupName(name string) (rune, bool) {
	r, ok := nameIndex()[strings.ToUpper(name)]
	return r, ok
}
