package pyre

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hermes-hooks/hermes/internal/pystr"
)

// The parser follows CPython 3.11's re/_parser.py closely (same order of
// checks, same messages), so that what it accepts and refuses is what the
// agent's re.compile accepts and refuses. Comments name the Python
// function a piece mirrors.

// Python's limits (_sre constants on 64-bit builds).
const (
	maxRepeat = 1<<32 - 1 // MAXREPEAT: "unbounded"
	maxGroups = 1<<30 - 1 // MAXGROUPS
	maxCode   = 1<<32 - 1 // MAXCODE, the longest look-behind
	// maxWidth stands for Python's MAXWIDTH (1<<64): any width above
	// maxCode fails a look-behind either way, so saturating here loses
	// nothing.
	maxWidth = 1 << 62
	// maxNesting approximates where CPython's recursive parser raises
	// RecursionError (between 400 and 500 nested groups, each counting
	// two levels); deeper patterns are refused, which also bounds our own
	// recursion.
	maxNesting = 800
)

// Flags of Python's re (the values do not matter outside this package).
const (
	flagIgnoreCase = 1 << iota
	flagLocale
	flagMultiline
	flagDotAll
	flagVerbose
	flagASCII
	flagTemplate
	flagUnicode
)

var flagLetters = map[string]int{
	"i": flagIgnoreCase, "L": flagLocale, "m": flagMultiline, "s": flagDotAll,
	"x": flagVerbose, "a": flagASCII, "t": flagTemplate, "u": flagUnicode,
}

const (
	typeFlags   = flagASCII | flagLocale | flagUnicode
	globalFlags = flagTemplate // and DEBUG, which has no inline letter
)

// Error is a pattern Python's re refuses, worded as re.error words it.
type Error struct {
	Msg string
	Pos int // in characters, as Python counts; -1 when Python gives none
}

func (e *Error) Error() string {
	if e.Pos < 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s at position %d", e.Msg, e.Pos)
}

// opcode is a node kind of the parsed pattern (sre's opcodes).
type opcode int

const (
	opLiteral opcode = iota
	opNotLiteral
	opIn // a character set
	opAny
	opAt
	opSubpattern
	opAtomic
	opRepeat
	opBranch
	opAssert
	opGroupRef
	opGroupRefExists
)

// at kinds.
const (
	atBeginning = iota
	atEnd
	atBeginningString // \A
	atEndString       // \Z
	atBoundary        // \b
	atNonBoundary     // \B
)

// repeat kinds.
const (
	greedy = iota
	lazy
	possessive
)

// A category escape (\d \D \s \S \w \W).
type category struct {
	class byte // 'd', 's' or 'w'
	neg   bool
}

// setItem is one member of a character set: a range (lo == hi for one
// character) or a category.
type setItem struct {
	lo, hi rune
	cat    *category
}

type node struct {
	op opcode

	char rune      // opLiteral, opNotLiteral
	set  []setItem // opIn
	neg  bool      // opIn: [^...]; opAssert: (?!...) / (?<!...)
	at   int       // opAt

	group    int // opSubpattern (0: none), opGroupRef, opGroupRefExists
	addFlags int // opSubpattern
	delFlags int // opSubpattern

	min, max int // opRepeat
	kind     int // opRepeat
	behind   bool

	sub  []*node   // opSubpattern, opAtomic, opRepeat, opAssert, opGroupRefExists (yes)
	no   []*node   // opGroupRefExists; nil when absent
	alts [][]*node // opBranch

	hasNo bool
}

type width struct{ lo, hi uint64 }

func satAdd(a, b uint64) uint64 {
	if a+b > maxWidth || a+b < a {
		return maxWidth
	}
	return a + b
}

func satMul(a uint64, b int) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > maxWidth/uint64(b) {
		return maxWidth
	}
	return a * uint64(b)
}

// parser holds the tokenizer (Tokenizer) and the parse state (State).
type parser struct {
	src   []rune
	index int    // where the token after next starts
	next  string // the next token, "" at the end
	// tokStart is where next starts (Tokenizer.tell() is index - len(next)).

	flags            int
	groupWidths      []*width // index = group number; nil while open
	groupNames       map[string]int
	lookbehindGroups int // -1: not inside a look-behind
	grouprefPos      map[int]int
}

// parse is re._parser.parse(pattern) followed by the checks of
// re._compiler that can refuse a pattern (look-behind width).
func parse(pattern string) (p *parser, seq []*node, err error) {
	p = &parser{
		src:              []rune(pattern),
		groupWidths:      []*width{{}}, // group 0
		groupNames:       map[string]int{},
		lookbehindGroups: -1,
		grouprefPos:      map[int]int{},
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			p, seq, err = nil, nil, e
		}
	}()
	p.advance()
	seq = p.parseSub(false, 0)
	if p.flags&flagLocale != 0 {
		panic(&Error{"cannot use LOCALE flag with a str pattern", -1})
	}
	if p.flags&flagASCII != 0 && p.flags&flagUnicode != 0 {
		panic(&Error{"ASCII and UNICODE flags are incompatible", -1})
	}
	if p.next != "" {
		p.fail("unbalanced parenthesis", 0)
	}
	for g, pos := range p.grouprefPos {
		if g >= len(p.groupWidths) {
			panic(&Error{fmt.Sprintf("invalid group reference %d", g), pos})
		}
	}
	checkLookbehinds(seq, p)
	return p, seq, nil
}

// advance reads the next token (Tokenizer.__next): one character, or a
// backslash and the character after it.
func (p *parser) advance() {
	if p.index >= len(p.src) {
		p.next = ""
		return
	}
	c := p.src[p.index]
	if c == '\\' {
		if p.index+1 >= len(p.src) {
			panic(&Error{"bad escape (end of pattern)", len(p.src) - 1})
		}
		p.next = string(p.src[p.index : p.index+2])
		p.index += 2
		return
	}
	p.next = string(c)
	p.index++
}

func (p *parser) tell() int { return p.index - len([]rune(p.next)) }

func (p *parser) seek(i int) {
	p.index = i
	p.advance()
}

func (p *parser) get() string {
	t := p.next
	p.advance()
	return t
}

func (p *parser) match(s string) bool {
	if p.next == s {
		p.advance()
		return true
	}
	return false
}

func (p *parser) fail(msg string, offset int) {
	panic(&Error{msg, p.tell() - offset})
}

func (p *parser) getWhile(n int, set string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if p.next == "" || len(p.next) != 1 || !strings.Contains(set, p.next) {
			break
		}
		b.WriteString(p.get())
	}
	return b.String()
}

func (p *parser) getUntil(term, name string) string {
	var b strings.Builder
	for {
		c := p.next
		p.advance()
		if c == "" {
			if b.Len() == 0 {
				p.fail("missing "+name, 0)
			}
			p.fail(fmt.Sprintf("missing %s, unterminated name", term), runeLen(b.String()))
		}
		if c == term {
			if b.Len() == 0 {
				p.fail("missing "+name, 1)
			}
			return b.String()
		}
		b.WriteString(c)
	}
}

func (p *parser) checkGroupName(name string, offset int) {
	if !isIdentifier(name) {
		p.fail(fmt.Sprintf("bad character in group name %s", pyRepr(name)), runeLen(name)+offset)
	}
}

func (p *parser) checkGroup(gid int) bool {
	return gid < len(p.groupWidths) && p.groupWidths[gid] != nil
}

func (p *parser) checkLookbehindGroup(gid int) {
	if p.lookbehindGroups >= 0 {
		if !p.checkGroup(gid) {
			p.fail("cannot refer to an open group", 0)
		}
		if gid >= p.lookbehindGroups {
			p.fail("cannot refer to group defined in the same lookbehind subpattern", 0)
		}
	}
}

func (p *parser) openGroup(name string, named bool, offset int) int {
	gid := len(p.groupWidths)
	p.groupWidths = append(p.groupWidths, nil)
	if len(p.groupWidths) > maxGroups {
		p.fail("too many groups", offset)
	}
	if named {
		if old, ok := p.groupNames[name]; ok {
			p.fail(fmt.Sprintf("redefinition of group name %s as group %d; was group %d", pyRepr(name), gid, old), offset)
		}
		p.groupNames[name] = gid
	}
	return gid
}

// parseSub is _parse_sub: alternatives separated by "|".
func (p *parser) parseSub(verbose bool, nested int) []*node {
	if nested > maxNesting {
		panic(&Error{"maximum recursion depth exceeded", -1})
	}
	var items [][]*node
	for {
		items = append(items, p.parseSeq(verbose, nested+1, nested == 0 && len(items) == 0))
		if !p.match("|") {
			break
		}
		if nested == 0 {
			verbose = p.flags&flagVerbose != 0
		}
	}
	if len(items) == 1 {
		return items[0]
	}
	return []*node{{op: opBranch, alts: items}}
}

// parseSeq is _parse: a sequence of items up to "|", ")" or the end.
func (p *parser) parseSeq(verbose bool, nested int, first bool) []*node {
	if nested > maxNesting {
		panic(&Error{"maximum recursion depth exceeded", -1})
	}
	var seq []*node
	for {
		this := p.next
		if this == "" || this == "|" || this == ")" {
			break
		}
		p.advance()
		if verbose {
			if len(this) == 1 && strings.Contains(" \t\n\r\v\f", this) {
				continue
			}
			if this == "#" {
				for {
					t := p.get()
					if t == "" || t == "\n" {
						break
					}
				}
				continue
			}
		}
		switch {
		case this[0] == '\\':
			seq = append(seq, p.escape(this))
		case !strings.Contains(".\\[{()*+?^$|", this):
			seq = append(seq, &node{op: opLiteral, char: firstRune(this)})
		case this == "[":
			seq = append(seq, p.parseSet())
		case strings.Contains("*+?{", this):
			var ok bool
			seq, ok = p.parseRepeat(this, seq)
			if !ok {
				seq = append(seq, &node{op: opLiteral, char: '{'})
			}
		case this == ".":
			seq = append(seq, &node{op: opAny})
		case this == "(":
			n, global := p.parseGroup(verbose, nested, first, len(seq) > 0)
			if global {
				verbose = p.flags&flagVerbose != 0
			}
			if n != nil {
				seq = append(seq, n)
			}
		case this == "^":
			seq = append(seq, &node{op: opAt, at: atBeginning})
		case this == "$":
			seq = append(seq, &node{op: opAt, at: atEnd})
		}
	}
	return seq
}

// parseSet reads a character set after "[".
func (p *parser) parseSet() *node {
	here := p.tell() - 1
	var set []setItem
	neg := p.match("^")
	for {
		this := p.get()
		if this == "" {
			p.fail("unterminated character set", p.tell()-here)
		}
		if this == "]" && len(set) > 0 {
			break
		}
		var code1 setItem
		if this[0] == '\\' {
			code1 = p.classEscape(this)
		} else {
			c := firstRune(this)
			code1 = setItem{lo: c, hi: c}
		}
		if p.match("-") {
			that := p.get()
			if that == "" {
				p.fail("unterminated character set", p.tell()-here)
			}
			if that == "]" {
				set = append(set, code1, setItem{lo: '-', hi: '-'})
				break
			}
			var code2 setItem
			if that[0] == '\\' {
				code2 = p.classEscape(that)
			} else {
				c := firstRune(that)
				code2 = setItem{lo: c, hi: c}
			}
			if code1.cat != nil || code2.cat != nil || code1.lo != code1.hi || code2.lo != code2.hi {
				p.fail(fmt.Sprintf("bad character range %s-%s", this, that), runeLen(this)+1+runeLen(that))
			}
			if code2.lo < code1.lo {
				p.fail(fmt.Sprintf("bad character range %s-%s", this, that), runeLen(this)+1+runeLen(that))
			}
			set = append(set, setItem{lo: code1.lo, hi: code2.lo})
			continue
		}
		set = append(set, code1)
	}
	if len(set) == 1 && set[0].cat == nil && set[0].lo == set[0].hi {
		if neg {
			return &node{op: opNotLiteral, char: set[0].lo}
		}
		return &node{op: opLiteral, char: set[0].lo}
	}
	return &node{op: opIn, set: set, neg: neg}
}

// parseRepeat applies a quantifier to the last item of seq. ok is false
// when "{" turned out to be a literal.
func (p *parser) parseRepeat(this string, seq []*node) ([]*node, bool) {
	here := p.tell()
	min, max := 0, maxRepeat
	switch this {
	case "?":
		max = 1
	case "+":
		min = 1
	case "{":
		if p.next == "}" {
			return seq, false
		}
		var lo, hi string
		for len(p.next) == 1 && p.next[0] >= '0' && p.next[0] <= '9' {
			lo += p.get()
		}
		if p.match(",") {
			for len(p.next) == 1 && p.next[0] >= '0' && p.next[0] <= '9' {
				hi += p.get()
			}
		} else {
			hi = lo
		}
		if !p.match("}") {
			p.seek(here)
			return seq, false
		}
		if lo != "" {
			min = atoiCapped(lo)
			if min >= maxRepeat {
				panic(&Error{"the repetition number is too large", -1}) // OverflowError
			}
		}
		if hi != "" {
			max = atoiCapped(hi)
			if max >= maxRepeat {
				panic(&Error{"the repetition number is too large", -1}) // OverflowError
			}
			if max < min {
				p.fail("min repeat greater than max repeat", p.tell()-here)
			}
		}
	}
	if len(seq) == 0 || seq[len(seq)-1].op == opAt {
		p.fail("nothing to repeat", p.tell()-here+runeLen(this))
	}
	item := seq[len(seq)-1]
	if item.op == opRepeat {
		p.fail("multiple repeat", p.tell()-here+runeLen(this))
	}
	kind := greedy
	if p.match("?") {
		kind = lazy
	} else if p.match("+") {
		kind = possessive
	}
	seq[len(seq)-1] = &node{op: opRepeat, min: min, max: max, kind: kind, sub: []*node{item}}
	return seq, true
}

func atoiCapped(s string) int {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > maxRepeat {
		return maxRepeat
	}
	return int(n)
}

// parseGroup reads what follows "(". It returns nil for a comment or
// global flags, which add nothing; global reports the latter.
func (p *parser) parseGroup(verbose bool, nested int, first, hasItems bool) (n *node, global bool) {
	start := p.tell() - 1
	capture, atomic := true, false
	var name string
	named := false
	addFlags, delFlags := 0, 0
	if p.match("?") {
		char := p.get()
		switch {
		case char == "":
			p.fail("unexpected end of pattern", 0)
		case char == "P":
			switch {
			case p.match("<"):
				name = p.getUntil(">", "group name")
				p.checkGroupName(name, 1)
				named = true
			case p.match("="):
				name = p.getUntil(")", "group name")
				p.checkGroupName(name, 1)
				gid, ok := p.groupNames[name]
				if !ok {
					p.fail(fmt.Sprintf("unknown group name %s", pyRepr(name)), runeLen(name)+1)
				}
				if !p.checkGroup(gid) {
					p.fail("cannot refer to an open group", runeLen(name)+1)
				}
				p.checkLookbehindGroup(gid)
				return &node{op: opGroupRef, group: gid}, false
			default:
				c := p.get()
				if c == "" {
					p.fail("unexpected end of pattern", 0)
				}
				p.fail("unknown extension ?P"+c, runeLen(c)+2)
			}
		case char == ":":
			capture = false
		case char == "#":
			for {
				if p.next == "" {
					p.fail("missing ), unterminated comment", p.tell()-start)
				}
				if p.get() == ")" {
					break
				}
			}
			return nil, false
		case char == "=" || char == "!" || char == "<":
			behind := false
			if char == "<" {
				char = p.get()
				if char == "" {
					p.fail("unexpected end of pattern", 0)
				}
				if char != "=" && char != "!" {
					p.fail("unknown extension ?<"+char, runeLen(char)+2)
				}
				behind = true
			}
			saved := p.lookbehindGroups
			if behind && saved < 0 {
				p.lookbehindGroups = len(p.groupWidths)
			}
			sub := p.parseSub(verbose, nested+1)
			if behind && saved < 0 {
				p.lookbehindGroups = -1
			}
			if !p.match(")") {
				p.fail("missing ), unterminated subpattern", p.tell()-start)
			}
			return &node{op: opAssert, behind: behind, neg: char == "!", sub: sub}, false
		case char == "(":
			return p.parseConditional(verbose, nested, start), false
		case char == ">":
			capture, atomic = false, true
		case flagLetters[char] != 0 || char == "-":
			add, del, global := p.parseFlags(char)
			if global {
				if !first || hasItems {
					p.fail("global flags not at the start of the expression", p.tell()-start)
				}
				return nil, true
			}
			addFlags, delFlags = add, del
			capture = false
		default:
			p.fail("unknown extension ?"+char, runeLen(char)+1)
		}
	}
	group := 0
	if capture {
		group = p.openGroup(name, named, runeLen(name)+1)
	}
	subVerbose := (verbose || addFlags&flagVerbose != 0) && delFlags&flagVerbose == 0
	sub := p.parseSub(subVerbose, nested+1)
	if !p.match(")") {
		p.fail("missing ), unterminated subpattern", p.tell()-start)
	}
	if group != 0 {
		w := seqWidth(sub, p)
		p.groupWidths[group] = &w
	}
	if atomic {
		return &node{op: opAtomic, sub: sub}, false
	}
	return &node{op: opSubpattern, group: group, addFlags: addFlags, delFlags: delFlags, sub: sub}, false
}

func (p *parser) parseConditional(verbose bool, nested, start int) *node {
	condName := p.getUntil(")", "group name")
	var cond int
	if isIdentifier(condName) {
		p.checkGroupName(condName, 1)
		gid, ok := p.groupNames[condName]
		if !ok {
			p.fail(fmt.Sprintf("unknown group name %s", pyRepr(condName)), runeLen(condName)+1)
		}
		cond = gid
	} else {
		n, ok := pyInt(condName)
		if !ok || n < 0 {
			p.fail(fmt.Sprintf("bad character in group name %s", pyRepr(condName)), runeLen(condName)+1)
		}
		if n == 0 {
			p.fail("bad group number", runeLen(condName)+1)
		}
		if n >= maxGroups {
			p.fail(fmt.Sprintf("invalid group reference %d", n), runeLen(condName)+1)
		}
		if _, seen := p.grouprefPos[n]; !seen {
			p.grouprefPos[n] = p.tell() - runeLen(condName) - 1
		}
		cond = n
	}
	p.checkLookbehindGroup(cond)
	yes := p.parseSeq(verbose, nested+1, false)
	n := &node{op: opGroupRefExists, group: cond, sub: yes}
	if p.match("|") {
		n.no = p.parseSeq(verbose, nested+1, false)
		n.hasNo = true
		if p.next == "|" {
			p.fail("conditional backref with more than two branches", 0)
		}
	}
	if !p.match(")") {
		p.fail("missing ), unterminated subpattern", p.tell()-start)
	}
	return n
}

// parseFlags is _parse_flags; global reports "(?flags)" (they were added
// to p.flags).
func (p *parser) parseFlags(char string) (add, del int, global bool) {
	if char != "-" {
		for {
			flag := flagLetters[char]
			if char == "L" {
				p.fail("bad inline flags: cannot use 'L' flag with a str pattern", 0)
			}
			add |= flag
			if flag&typeFlags != 0 && add&typeFlags != flag {
				p.fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible", 0)
			}
			char = p.get()
			if char == "" {
				p.fail("missing -, : or )", 0)
			}
			if char == ")" || char == "-" || char == ":" {
				break
			}
			if flagLetters[char] == 0 {
				msg := "missing -, : or )"
				if isAlpha(char) {
					msg = "unknown flag"
				}
				p.fail(msg, runeLen(char))
			}
		}
	}
	if char == ")" {
		p.flags |= add
		return 0, 0, true
	}
	if add&globalFlags != 0 {
		p.fail("bad inline flags: cannot turn on global flag", 1)
	}
	if char == "-" {
		char = p.get()
		if char == "" {
			p.fail("missing flag", 0)
		}
		if flagLetters[char] == 0 {
			msg := "missing flag"
			if isAlpha(char) {
				msg = "unknown flag"
			}
			p.fail(msg, runeLen(char))
		}
		for {
			flag := flagLetters[char]
			if flag&typeFlags != 0 {
				p.fail("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", 0)
			}
			del |= flag
			char = p.get()
			if char == "" {
				p.fail("missing :", 0)
			}
			if char == ":" {
				break
			}
			if flagLetters[char] == 0 {
				msg := "missing :"
				if isAlpha(char) {
					msg = "unknown flag"
				}
				p.fail(msg, runeLen(char))
			}
		}
	}
	if del&globalFlags != 0 {
		p.fail("bad inline flags: cannot turn off global flag", 1)
	}
	if add&del != 0 {
		p.fail("bad inline flags: flag turned on and off", 1)
	}
	return add, del, false
}

var simpleEscapes = map[byte]rune{'a': '\a', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '\\': '\\'}

// escape is _escape: an escape outside a set.
func (p *parser) escape(esc string) *node {
	c := esc[1]
	switch c {
	case 'A':
		return &node{op: opAt, at: atBeginningString}
	case 'Z':
		return &node{op: opAt, at: atEndString}
	case 'b':
		return &node{op: opAt, at: atBoundary}
	case 'B':
		return &node{op: opAt, at: atNonBoundary}
	case 'd', 'D', 's', 'S', 'w', 'W':
		return &node{op: opIn, set: []setItem{{cat: categoryOf(c)}}}
	}
	if r, ok := simpleEscapes[c]; ok {
		return &node{op: opLiteral, char: r}
	}
	if r, ok := p.codeEscape(esc); ok {
		return &node{op: opLiteral, char: r}
	}
	switch {
	case c == '0':
		esc += p.getWhile(2, "01234567")
		n, _ := strconv.ParseInt(esc[1:], 8, 32)
		return &node{op: opLiteral, char: rune(n)}
	case c >= '1' && c <= '9':
		if len(p.next) == 1 && p.next[0] >= '0' && p.next[0] <= '9' {
			esc += p.get()
			if isOct(esc[1]) && isOct(esc[2]) && len(p.next) == 1 && isOct(p.next[0]) {
				esc += p.get()
				n, _ := strconv.ParseInt(esc[1:], 8, 32)
				if n > 0o377 {
					p.fail(fmt.Sprintf("octal escape value %s outside of range 0-0o377", esc), len(esc))
				}
				return &node{op: opLiteral, char: rune(n)}
			}
		}
		group, _ := strconv.Atoi(esc[1:])
		if group < len(p.groupWidths) {
			if !p.checkGroup(group) {
				p.fail("cannot refer to an open group", len(esc))
			}
			p.checkLookbehindGroup(group)
			return &node{op: opGroupRef, group: group}
		}
		p.fail(fmt.Sprintf("invalid group reference %d", group), len(esc)-1)
	}
	if runeLen(esc) == 2 {
		if isASCIILetter(c) {
			p.fail("bad escape "+esc, runeLen(esc))
		}
		return &node{op: opLiteral, char: firstRune(esc[1:])}
	}
	p.fail("bad escape "+esc, runeLen(esc))
	return nil
}

// classEscape is _class_escape: an escape inside a set.
func (p *parser) classEscape(esc string) setItem {
	c := esc[1]
	if c == 'b' {
		return setItem{lo: '\b', hi: '\b'}
	}
	if r, ok := simpleEscapes[c]; ok {
		return setItem{lo: r, hi: r}
	}
	switch c {
	case 'd', 'D', 's', 'S', 'w', 'W':
		return setItem{cat: categoryOf(c)}
	}
	if r, ok := p.codeEscape(esc); ok {
		return setItem{lo: r, hi: r}
	}
	switch {
	case isOct(c):
		esc += p.getWhile(2, "01234567")
		n, _ := strconv.ParseInt(esc[1:], 8, 32)
		if n > 0o377 {
			p.fail(fmt.Sprintf("octal escape value %s outside of range 0-0o377", esc), len(esc))
		}
		return setItem{lo: rune(n), hi: rune(n)}
	case c == '8' || c == '9':
		p.fail("bad escape "+esc, runeLen(esc))
	}
	if runeLen(esc) == 2 {
		if isASCIILetter(c) {
			p.fail("bad escape "+esc, runeLen(esc))
		}
		r := firstRune(esc[1:])
		return setItem{lo: r, hi: r}
	}
	p.fail("bad escape "+esc, runeLen(esc))
	return setItem{}
}

// codeEscape reads \x.. \u.... \U........ and \N{name}, the escapes both
// places share; ok is false for any other escape.
func (p *parser) codeEscape(esc string) (rune, bool) {
	var digits int
	switch esc[1] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case 'N':
		if !p.match("{") {
			p.fail("missing {", 0)
		}
		name := p.getUntil("}", "character name")
		r, ok := lookupName(name)
		if !ok {
			p.fail(fmt.Sprintf("undefined character name %s", pyRepr(name)), runeLen(name)+len(`\N{}`))
		}
		return r, true
	default:
		return 0, false
	}
	esc += p.getWhile(digits, "0123456789abcdefABCDEF")
	if len(esc) != digits+2 {
		p.fail("incomplete escape "+esc, len(esc))
	}
	n, _ := strconv.ParseUint(esc[2:], 16, 64)
	if n > unicode.MaxRune {
		p.fail("bad escape "+esc, len(esc))
	}
	return rune(n), true
}

func categoryOf(c byte) *category {
	lower := c | 0x20
	return &category{class: lower, neg: c != lower}
}

func isOct(c byte) bool         { return c >= '0' && c <= '7' }
func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func runeLen(s string) int      { return len([]rune(s)) }

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func isAlpha(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// isIdentifier approximates str.isidentifier(): a letter, a letter number
// or "_", then letters, digits, marks, letter numbers and connector
// punctuation.
func isIdentifier(s string) bool {
	for i, r := range []rune(s) {
		start := unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || r == '_' || unicode.Is(unicode.Other_ID_Start, r)
		if i == 0 && !start {
			return false
		}
		if !start && !unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) {
			return false
		}
	}
	return s != ""
}

// pyInt is int(s) for the strings a conditional group reference can hold:
// optional white space and sign, Unicode decimal digits, "_" between
// digits.
func pyInt(s string) (int, bool) {
	s = pystr.Strip(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return 0, false
	}
	n := 0
	for _, r := range s {
		if r == '_' {
			continue
		}
		d := digitValue(r)
		if d < 0 {
			return 0, false
		}
		if n > maxGroups {
			continue
		}
		n = n*10 + d
	}
	if neg {
		n = -n
	}
	return n, true
}

// digitValue is the value of a Unicode decimal digit, or -1. Category Nd
// comes in blocks of whole runs of ten, each from 0 to 9.
func digitValue(r rune) int {
	if !unicode.Is(unicode.Nd, r) {
		return -1
	}
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) {
		start--
	}
	return int(r-start) % 10
}

// pyRepr quotes s the way Python's repr() does for the characters a group
// name can hold.
func pyRepr(s string) string {
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// seqWidth is SubPattern.getwidth.
func seqWidth(seq []*node, p *parser) width {
	var w width
	for _, n := range seq {
		var i, j uint64
		switch n.op {
		case opLiteral, opNotLiteral, opIn, opAny:
			i, j = 1, 1
		case opBranch:
			i = maxWidth
			for _, alt := range n.alts {
				aw := seqWidth(alt, p)
				i, j = min(i, aw.lo), max(j, aw.hi)
			}
		case opSubpattern, opAtomic:
			sw := seqWidth(n.sub, p)
			i, j = sw.lo, sw.hi
		case opRepeat:
			sw := seqWidth(n.sub, p)
			i = satMul(sw.lo, n.min)
			if n.max == maxRepeat && sw.hi != 0 {
				j = maxWidth
			} else {
				j = satMul(sw.hi, n.max)
			}
		case opGroupRef:
			gw := p.groupWidths[n.group]
			i, j = gw.lo, gw.hi
		case opGroupRefExists:
			yw := seqWidth(n.sub, p)
			i, j = yw.lo, yw.hi
			if n.hasNo {
				nw := seqWidth(n.no, p)
				i, j = min(i, nw.lo), max(j, nw.hi)
			} else {
				i = 0
			}
		}
		w.lo, w.hi = satAdd(w.lo, i), satAdd(w.hi, j)
	}
	return w
}

// checkLookbehinds applies re._compiler's rule: a look-behind must have a
// fixed width.
func checkLookbehinds(seq []*node, p *parser) {
	for _, n := range seq {
		if n.op == opAssert && n.behind {
			w := seqWidth(n.sub, p)
			if w.lo > maxCode {
				panic(&Error{"looks too much behind", -1})
			}
			if w.lo != w.hi {
				panic(&Error{"look-behind requires fixed-width pattern", -1})
			}
		}
		checkLookbehinds(n.sub, p)
		checkLookbehinds(n.no, p)
		for _, alt := range n.alts {
			checkLookbehinds(alt, p)
		}
	}
}
