package pyre

import (
	"fmt"
	"math"
	"strings"
)

// The emitter writes the parsed pattern in regexp2's default (.NET)
// syntax using only constructs whose meaning is the same there: explicit
// character sets for every literal, class and category (so neither
// engine's idea of \w, \s, \d or case folding leaks in), unnamed groups
// numbered as Python numbers them, \k<n> back-references, and
// look-arounds for Python's anchors.

type emitter struct {
	b strings.Builder
}

// emitPattern writes seq wrapped for fullmatch semantics.
func emitPattern(seq []*node, globalFlags int) string {
	e := &emitter{}
	e.b.WriteString(`\A(?:`)
	e.seq(seq, globalFlags)
	e.b.WriteString(`)\z`)
	return e.b.String()
}

// combineFlags is re._compiler._combine_flags.
func combineFlags(flags, add, del int) int {
	if add&typeFlags != 0 {
		flags &^= typeFlags
	}
	return (flags | add) &^ del
}

func (e *emitter) seq(seq []*node, flags int) {
	for _, n := range seq {
		e.node(n, flags)
	}
}

func (e *emitter) node(n *node, flags int) {
	ascii := flags&flagASCII != 0
	fold := flags&flagIgnoreCase != 0
	switch n.op {
	case opLiteral, opNotLiteral:
		s := runeSet{n.char, n.char}
		if fold {
			s = foldSet(s, ascii)
		}
		if n.op == opNotLiteral {
			s = s.negate()
		}
		e.set(s)
	case opIn:
		if !fold && !ascii && e.compactSet(n) {
			return
		}
		var s runeSet
		for _, it := range n.set {
			if it.cat != nil {
				s = append(s, categorySet(it.cat, ascii)...)
			} else {
				s = s.add(it.lo, it.hi)
			}
		}
		s = s.norm()
		if fold {
			s = foldSet(s, ascii)
		}
		if n.neg {
			s = s.negate()
		}
		e.set(s)
	case opAny:
		if flags&flagDotAll != 0 {
			e.b.WriteString(`[\s\S]`)
		} else {
			e.b.WriteString(`[^\n]`)
		}
	case opAt:
		e.at(n.at, flags)
	case opSubpattern:
		if n.group != 0 {
			e.b.WriteString("(")
		} else {
			e.b.WriteString("(?:")
		}
		e.seq(n.sub, combineFlags(flags, n.addFlags, n.delFlags))
		e.b.WriteString(")")
	case opAtomic:
		e.b.WriteString("(?>")
		e.seq(n.sub, flags)
		e.b.WriteString(")")
	case opRepeat:
		e.repeat(n, flags)
	case opBranch:
		e.b.WriteString("(?:")
		for i, alt := range n.alts {
			if i > 0 {
				e.b.WriteString("|")
			}
			e.seq(alt, flags)
		}
		e.b.WriteString(")")
	case opAssert:
		switch {
		case !n.behind && !n.neg:
			e.b.WriteString("(?=")
		case !n.behind && n.neg:
			e.b.WriteString("(?!")
		case n.behind && !n.neg:
			e.b.WriteString("(?<=")
		default:
			e.b.WriteString("(?<!")
		}
		e.seq(n.sub, flags)
		e.b.WriteString(")")
	case opGroupRef:
		if fold {
			// Python compares the lower-case forms; regexp2 folds with
			// Go's simple case folding, which agrees but for rare
			// characters.
			fmt.Fprintf(&e.b, `(?i:\k<%d>)`, n.group)
		} else {
			fmt.Fprintf(&e.b, `\k<%d>`, n.group)
		}
	case opGroupRefExists:
		fmt.Fprintf(&e.b, "(?(%d)(?:", n.group)
		e.seq(n.sub, flags)
		e.b.WriteString(")|(?:")
		e.seq(n.no, flags)
		e.b.WriteString("))")
	}
}

func (e *emitter) repeat(n *node, flags int) {
	if n.kind == possessive {
		e.b.WriteString("(?>")
	}
	e.b.WriteString("(?:")
	e.seq(n.sub, flags)
	e.b.WriteString(")")
	// .NET counts repetitions in an int32; Python allows up to 2**32-2.
	// Past 2**31-1 the two differ only on strings longer than that.
	lo := min(n.min, math.MaxInt32)
	switch {
	case n.max == maxRepeat:
		fmt.Fprintf(&e.b, "{%d,}", lo)
	default:
		fmt.Fprintf(&e.b, "{%d,%d}", lo, min(n.max, math.MaxInt32))
	}
	switch n.kind {
	case lazy:
		e.b.WriteString("?")
	case possessive:
		e.b.WriteString(")")
	}
}

// at writes Python's anchors. ^ and $ keep Python's rules: without
// MULTILINE, $ is the end or just before a final "\n"; with it, before any
// "\n". \Z is the very end. \b and \B use Python's word characters, and
// neither matches in an empty string.
func (e *emitter) at(kind, flags int) {
	multiline := flags&flagMultiline != 0
	switch kind {
	case atBeginning:
		if multiline {
			e.b.WriteString(`(?:(?<=\n)|\A)`)
		} else {
			e.b.WriteString(`\A`)
		}
	case atEnd:
		if multiline {
			e.b.WriteString(`(?=\n|\z)`)
		} else {
			e.b.WriteString(`(?=\n?\z)`)
		}
	case atBeginningString:
		e.b.WriteString(`\A`)
	case atEndString:
		e.b.WriteString(`\z`)
	case atBoundary, atNonBoundary:
		word := `[\p{L}\p{N}_]`
		if flags&flagASCII != 0 {
			word = `[0-9A-Z_a-z]`
		}
		if kind == atBoundary {
			fmt.Fprintf(&e.b, `(?:(?<=%[1]s)(?!%[1]s)|(?<!%[1]s)(?=%[1]s))`, word)
		} else {
			fmt.Fprintf(&e.b, `(?!\A\z)(?:(?<=%[1]s)(?=%[1]s)|(?<!%[1]s)(?!%[1]s))`, word)
		}
	}
}

func (e *emitter) set(s runeSet) { writeSet(&e.b, s) }

// unicodeClasses are the Unicode categories of Python's re in regexp2's
// class syntax; regexp2 reads \p{..} from Go's tables, the ones
// categorySet uses, so both spellings mean the same set.
var unicodeClasses = map[byte]string{'d': `\p{Nd}`, 'w': `\p{L}\p{N}_`}

// compactSet writes a set that needs no set algebra — ranges and
// non-negated \d or \w, or a lone negated one — with \p{..} names
// instead of hundreds of ranges, and reports whether it could.
func (e *emitter) compactSet(n *node) bool {
	var b strings.Builder
	neg := n.neg
	for _, it := range n.set {
		switch {
		case it.cat == nil:
			writeClassRune(&b, it.lo)
			if it.hi != it.lo {
				b.WriteString("-")
				writeClassRune(&b, it.hi)
			}
		case unicodeClasses[it.cat.class] == "":
			return false
		case it.cat.neg && len(n.set) == 1:
			neg = !neg
			b.WriteString(unicodeClasses[it.cat.class])
		case it.cat.neg:
			return false
		default:
			b.WriteString(unicodeClasses[it.cat.class])
		}
	}
	e.b.WriteString("[")
	if neg {
		e.b.WriteString("^")
	}
	e.b.WriteString(b.String())
	e.b.WriteString("]")
	return true
}

// writeSet writes s as a .NET character class (one character as itself);
// an empty set is a look-ahead that always fails.
func writeSet(b *strings.Builder, s runeSet) {
	if len(s) == 0 {
		b.WriteString("(?!)")
		return
	}
	if len(s) == 2 && s[0] == s[1] {
		writeClassRune(b, s[0]) // the escapes mean the same outside a class
		return
	}
	b.WriteString("[")
	for i := 0; i < len(s); i += 2 {
		writeClassRune(b, s[i])
		if s[i+1] != s[i] {
			if s[i+1] > s[i]+1 {
				b.WriteString("-")
			}
			writeClassRune(b, s[i+1])
		}
	}
	b.WriteString("]")
}

// writeClassRune writes one character, in a class or out: ASCII letters and
// digits as they are, other BMP characters (surrogates included) as
// \uXXXX, and the rest as the character itself, which regexp2 reads as
// one rune and never as syntax.
func writeClassRune(b *strings.Builder, r rune) {
	switch {
	case r < 0x80 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
		b.WriteRune(r)
	case r <= 0xffff:
		fmt.Fprintf(b, `\u%04X`, r)
	default:
		b.WriteRune(r)
	}
}
