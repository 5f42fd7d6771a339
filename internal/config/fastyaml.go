package config

import (
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// fastDecode reads body when it is written in the plain block style that
// configs are written in (block mappings and sequences whose scalars are
// plain or quoted on one line, comments, blank lines), building the tree
// yaml.v3 builds from it, node for node (kind, style, tag, value, line,
// column; not comments, which nothing here reads), but for the items of
// outermost lists that are mappings or lists: each is checked, then left
// a stub (IsStub) that Deref reads again. For anything else
// (flow collections, anchors, tags, block or multi-line scalars, tabs,
// document markers, an escape it does not know, whatever yaml.v3 might
// refuse) ok is false and yaml.v3 reads the file: this only spares
// yaml.v3's scanner, parser and the garbage they make on the files that
// are big (SPEC §29 item 2: each parse of a 55 MB config cost seconds).
// FuzzFastDecode checks it against yaml.v3.
func fastDecode(body []byte) (doc *yaml.Node, ok bool) {
	_, doc, ok = fastDecodeWith(body, nil)
	return doc, ok
}

// fastDecodeWith is fastDecode handing each outermost item to take (see
// DecodeEachItem), or, when take is nil, leaving each a stub (see
// IsStub).
func fastDecodeWith(body []byte, take func(path []PathStep, item, stub *yaml.Node)) (p *fastParser, doc *yaml.Node, ok bool) {
	return fastDecodeIn(body, take, len(body) >= parallelDecodeMin && runtime.GOMAXPROCS(0) > 1)
}

// fastDecodeIn is fastDecodeWith, reading the items it leaves stubs on
// every CPU when parallel.
func fastDecodeIn(body []byte, take func(path []PathStep, item, stub *yaml.Node), parallel bool) (p *fastParser, doc *yaml.Node, ok bool) {
	p = &fastParser{take: take, stub: take == nil, refused: refused, arena: &nodeArena{}}
	if len(body) == 0 || !fastBytes(body) {
		return p, nil, false
	}
	p.text = string(body)
	p.next()
	if p.eof {
		return p, nil, false // empty: yaml.v3 says io.EOF, cheaply
	}
	if p.stub && parallel {
		p.items = newItemReaders(p.refused)
	}
	root, ok := p.block(p.indent)
	if p.items != nil {
		values, read := p.items.wait()
		p.values += values
		ok = ok && read
	}
	if !ok || !p.eof || p.marker {
		return p, nil, false
	}
	doc = p.node()
	*doc = yaml.Node{Kind: yaml.DocumentNode, Line: root.Line, Column: root.Column, Content: []*yaml.Node{root}}
	return p, doc, true
}

// fastBytes reports whether every byte of body is one the fast reader
// takes: printable ASCII, line feeds, and UTF-8 characters YAML calls
// printable that are not line breaks (YAML 1.1 breaks lines at U+0085,
// U+2028 and U+2029). No tabs, no carriage returns, no byte-order mark.
func fastBytes(body []byte) bool {
	for i := 0; i < len(body); {
		c := body[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(body[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r >= 0xA0 && r <= 0xD7FF && r != 0x2028 && r != 0x2029,
			r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF,
			r >= 0x10000:
		default:
			return false
		}
		i += size
	}
	return true
}

// fastParser walks the text a content line at a time.
type fastParser struct {
	text string
	pos  int // start of the next line not yet read
	// The current content line: its number (1-based), where it starts in
	// text, its indentation and its end (before the line feed).
	line, start, indent, end int
	eof                      bool
	marker                   bool // a line was a document marker ("---", "...")
	// The line restEmpty left (its number and start), where the null of
	// a key or entry with nothing after it is.
	leftLine, leftStart int
	// at is how far the current line has been read (an offset in text):
	// "- a: 1" is read as a sequence entry, then a mapping from "a".
	at int
	// nodes are allocated a slab at a time.
	slab []yaml.Node
	// kids is a stack of children being collected; each collection takes
	// an exactly sized copy of its own when it ends.
	kids []*yaml.Node
	// take, when set, is handed each outermost list item that is a
	// collection, with its path (see DecodeEachItem); inItem counts the
	// list items being read.
	take   func(path []PathStep, item, stub *yaml.Node)
	path   []PathStep
	inItem int
	// stub: each outermost list item that is a collection is left in the
	// tree as a stub (IsStub), when refused says nothing against it.
	stub    bool
	refused func(*yaml.Node) bool
	// arena, when set, holds the nodes inside outermost items (with stub
	// or take), one item at a time: an item handed to take, or read to
	// leave a stub, is void once the next is read.
	arena *nodeArena
	// leftEnd is the end of the content line next last moved past: where
	// an item that ended there ends.
	leftEnd int
	// values counts the values read (scalars that are not keys), stubs'
	// items included (Decoding.Values).
	values int
	// items, when set, read the outermost items that would be left stubs
	// on every CPU (see itemReaders).
	items *itemReaders
}

// PathStep is a step down from a document's root: to the value of a
// mapping's key (Key), or to a list's item (Index, when Key is nil).
type PathStep struct {
	Key   *yaml.Node
	Index int
}

// Taken stands in a tree DecodeEachItem made for each item it handed on.
var Taken = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}

// DecodeEachItem reads body as Decode does, but hands each item of an
// outermost list (a list not inside another list's item) that is a
// mapping or a list to take, with its path from the root and its stub
// (IsStub), as soon as it is read (both are void once take returns), and
// leaves Taken in its place in the tree: a check of a 55 MB config's
// 755,000 hooks, one at a time, needs no tree of them all (SPEC §29 item
// 2). ok is false when the fast reader does not take body (items may have
// been handed on already): read it with Decode.
func DecodeEachItem(body []byte, take func(path []PathStep, item, stub *yaml.Node)) (doc *yaml.Node, ok bool) {
	_, doc, ok = fastDecodeWith(body, take)
	return doc, ok
}

// IsStub reports whether n stands for an item of an outermost list (a
// list not inside another list's item) that is a mapping or a list, which
// the fast reader checked and then let go, keeping its position (Kind,
// Tag, Line, Column) and its text in Value: from the start of the line of
// its "-" to the end of its last line. Deref reads a stub's item again
// from that text, afresh each time; a 55 MB config's 755,000 hooks are
// 755,000 stubs rather than 4.5 million nodes (SPEC §29 item 2), and the
// strings read from an item are the file's. A stub has no Content, and no
// mapping or list yaml.v3 reads has a Value.
func IsStub(n *yaml.Node) bool {
	return n != nil && isCollection(n) && n.Content == nil && n.Value != ""
}

// SameStub reports whether stubs a and b hold the same item: the same
// text, from the start of a line. The fast reader reads an item from its
// text alone (it takes no anchor, alias or tag), so their items are read
// alike, lines apart.
func SameStub(a, b *yaml.Node) bool {
	return a.Kind == b.Kind && a.Column == b.Column && a.Value == b.Value
}

// An ItemReader reads stubs' items (IsStub) into memory it uses again:
// an item it read is void once it reads the next. The zero value is ready.
type ItemReader struct{ arena nodeArena }

// Read is Deref(n) for a stub, read into r's memory; n itself otherwise.
func (r *ItemReader) Read(n *yaml.Node) *yaml.Node {
	if !IsStub(n) {
		return n
	}
	r.arena.reset()
	r.arena.all = true
	return unstubInto(n, &r.arena)
}

// refused reports whether Refusal finds something against n. The fast
// reader calls it through its refused field: a direct call would join
// Refusal, Resolve and Deref (which reads stubs with the fast reader) in
// one cycle of calls, whose parameters Go's escape analysis then sends to
// the heap (a node made to resolve a scalar, on every call).
func refused(n *yaml.Node) bool { return Refusal(n) != nil }

// unstub reads the item a stub stands for.
func unstub(s *yaml.Node) *yaml.Node {
	// Room for a key and a value on each line, the list and the item.
	lines := strings.Count(s.Value, "\n") + 1
	return unstubInto(s, &nodeArena{nodes: make([]yaml.Node, 2*lines+2), all: true})
}

// unstubInto reads the item a stub stands for, into a: lines numbered
// from the stub's (an item starting on its "-"'s line, as configs write
// them; those that start below are numbered again).
func unstubInto(s *yaml.Node, a *nodeArena) *yaml.Node {
	n, _, ok := readItem(s.Value, s.Line, a)
	if !ok || n.Kind != s.Kind {
		// The same text was read once already.
		panic(fmt.Sprintf("config: the item at line %d no longer reads", s.Line))
	}
	if by := s.Line - n.Line; by != 0 {
		renumber(n, by)
	}
	if n.Line != s.Line || n.Column != s.Column {
		panic(fmt.Sprintf("config: the item at line %d is read at %d:%d", s.Line, n.Line, n.Column))
	}
	return n
}

// readItem reads text, a list of one item from the start of its "-"'s
// line numbered line, into a; values is the item's values. ok is false
// when the fast reader does not take it.
func readItem(text string, line int, a *nodeArena) (item *yaml.Node, values int, ok bool) {
	if item, values, ok := readFlatItem(text, line, a); ok {
		return item, values, true
	}
	return readItemGeneral(text, line, a)
}

// readItemGeneral is readItem by the fast reader's general rules.
func readItemGeneral(text string, line int, a *nodeArena) (item *yaml.Node, values int, ok bool) {
	p := fastParser{text: text, line: line - 1, arena: a, kids: a.stack}
	defer func() { a.stack = p.kids[:0] }()
	p.next()
	seq, ok := p.block(p.indent)
	if !ok || !p.eof || p.marker || seq.Kind != yaml.SequenceNode || len(seq.Content) != 1 {
		return nil, 0, false
	}
	return seq.Content[0], p.values, true
}

// isCollection reports whether n is a mapping or a list.
func isCollection(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode
}

// leave fills place, in the tree, with what it keeps of an outermost item
// read from text (into an arena): a stub when it is a mapping or a list
// refused finds nothing against, the item whole when refused (for Refusal
// of the tree to find), the scalar it is.
func leave(place, item *yaml.Node, text string, refused func(*yaml.Node) bool) {
	switch {
	case !isCollection(item):
		*place = *item
	case !refused(item):
		setStub(place, item, text)
	default:
		*place = *cloneTree(item)
	}
}

// setStub makes stub the stub (IsStub) of item, read from text.
func setStub(stub, item *yaml.Node, text string) {
	stub.Kind, stub.Tag, stub.Line, stub.Column, stub.Value = item.Kind, item.Tag, item.Line, item.Column, text
}

// renumber moves every node of n's tree by lines.
func renumber(n *yaml.Node, lines int) {
	n.Line += lines
	for _, c := range n.Content {
		renumber(c, lines)
	}
}

// next moves to the next content line: not blank, not only a comment.
func (p *fastParser) next() {
	p.leftEnd = p.end
	for p.pos < len(p.text) {
		p.line++
		start := p.pos
		end := strings.IndexByte(p.text[start:], '\n')
		if end < 0 {
			end = len(p.text)
		} else {
			end += start
		}
		p.pos = end + 1
		i := start
		for i < end && p.text[i] == ' ' {
			i++
		}
		if i == end || p.text[i] == '#' {
			continue
		}
		if i == start && end-start >= 3 && (p.text[i:i+3] == "---" || p.text[i:i+3] == "...") && (end-start == 3 || p.text[i+3] == ' ') {
			p.marker = true // a document marker, "... :" included: left to yaml.v3
		}
		p.start, p.indent, p.end, p.at = start, i-start, end, i
		return
	}
	p.eof = true
	p.indent = -1
}

func (p *fastParser) node() *yaml.Node {
	if p.inArena() {
		return p.arena.node()
	}
	if len(p.slab) == 0 {
		p.slab = make([]yaml.Node, 1024)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	return n
}

// inArena reports whether the node being read goes in the arena: it is
// inside an outermost item (or the arena takes every node).
func (p *fastParser) inArena() bool { return p.arena != nil && (p.inItem > 0 || p.arena.all) }

// nodeArena holds the nodes of one item at a time, and their lists of
// children, in memory reused for the next: reading a 55 MB config's
// 755,000 hooks to check them, or to leave stubs, makes no garbage of
// them (SPEC §29 item 2).
type nodeArena struct {
	nodes []yaml.Node
	n     int // nodes used
	kids  []*yaml.Node
	k     int // kids used
	all   bool
	// stack is the parser's stack of children (fastParser.kids), kept
	// for the next item read.
	stack []*yaml.Node
}

func (a *nodeArena) node() *yaml.Node {
	if a.n == len(a.nodes) {
		// Those handed out stay where they are, for as long as they
		// are used.
		a.nodes, a.n = make([]yaml.Node, max(32, 2*len(a.nodes))), 0
	}
	a.n++
	return &a.nodes[a.n-1]
}

func (a *nodeArena) content(n int) []*yaml.Node {
	if a.k+n > len(a.kids) {
		a.kids, a.k = make([]*yaml.Node, max(128, 2*len(a.kids), n)), 0
	}
	a.k += n
	return a.kids[a.k-n : a.k : a.k]
}

// reset lets the memory be used again: every node handed out is void.
func (a *nodeArena) reset() {
	clear(a.nodes[:a.n])
	clear(a.kids[:a.k])
	a.n, a.k = 0, 0
}

// cloneTree copies n's tree out of an arena.
func cloneTree(n *yaml.Node) *yaml.Node {
	cp := *n
	if n.Content != nil {
		cp.Content = make([]*yaml.Node, len(n.Content))
		for i, c := range n.Content {
			cp.Content[i] = cloneTree(c)
		}
	}
	return &cp
}

// column is the 1-based column of offset at on the current line, in
// characters as yaml.v3 counts them.
func (p *fastParser) column(at int) int { return columnOf(p.text[p.start:at]) }

// columnOf is the 1-based column after prefix, the start of its line.
func columnOf(prefix string) int {
	for i := 0; i < len(prefix); i++ {
		if prefix[i] >= utf8.RuneSelf {
			return utf8.RuneCountInString(prefix) + 1
		}
	}
	return len(prefix) + 1
}

// entryAt reports whether a sequence entry ("-" then a space or the end
// of the line) starts at offset i of the current line.
func (p *fastParser) entryAt(i int) bool {
	return p.text[i] == '-' && (i+1 == p.end || p.text[i+1] == ' ')
}

// block reads the collection that starts at p.at on the current line, at
// the given column (indentation): a sequence or a mapping.
func (p *fastParser) block(col int) (*yaml.Node, bool) {
	if p.entryAt(p.at) {
		return p.sequence(col)
	}
	return p.mapping(col)
}

// sequence reads block sequence entries at column col (0-based).
func (p *fastParser) sequence(col int) (*yaml.Node, bool) {
	seq := p.node()
	// Field by field: the slab is zeroed, and a whole-struct store would
	// write (with barriers) every pointer of a 152-byte node.
	seq.Kind, seq.Tag, seq.Line, seq.Column = yaml.SequenceNode, "!!seq", p.line, p.column(p.at)
	mark := len(p.kids)
	for !p.eof && p.indent == col && p.at-p.start == col && p.entryAt(p.at) {
		dash, dashLine := p.at, p.start
		outer := (p.take != nil || p.stub) && p.inItem == 0
		if outer && p.items != nil {
			// The item ends before the next content line indented
			// no more than its "-": its lines are handed on as they
			// are, to be read and checked on another CPU.
			line, place := p.line, p.node()
			for p.next(); !p.eof && p.indent > col; p.next() {
			}
			p.items.add(itemJob{text: p.text[dashLine:p.leftEnd], line: line, place: place})
			p.kids = append(p.kids, place)
			continue
		}
		p.at = skipSpaces(p.text, dash+1, p.end)
		var item *yaml.Node
		var ok bool
		if outer {
			p.arena.reset() // the last item is done with
		}
		if outer && p.take != nil {
			p.path = append(p.path, PathStep{Index: len(p.kids) - mark})
		}
		p.inItem++
		switch {
		case p.restEmpty():
			item, ok = p.nested(col, false, dash+1)
		case p.entryAt(p.at):
			return nil, false // "- - x": left to yaml.v3
		default:
			item, ok = p.inline(col, true)
		}
		p.inItem--
		if !ok {
			return nil, false
		}
		if outer {
			text := p.text[dashLine:p.leftEnd]
			if p.take != nil && isCollection(item) {
				stub := p.arena.node() // void with the item
				setStub(stub, item, text)
				p.take(p.path, item, stub)
				item = Taken
			} else {
				place := p.node()
				leave(place, item, text, p.refused)
				item = place
			}
		}
		if outer && p.take != nil {
			p.path = p.path[:len(p.path)-1]
		}
		p.kids = append(p.kids, item)
	}
	if !p.eof && p.indent > col {
		return nil, false // more indented than its entries: a continuation, or an error
	}
	seq.Content = p.collect(mark)
	return seq, true
}

// mapping reads block mapping entries whose keys are at column col, the
// first starting at p.at (possibly after "- " on the same line).
func (p *fastParser) mapping(col int) (*yaml.Node, bool) {
	m := p.node()
	m.Kind, m.Tag, m.Line, m.Column = yaml.MappingNode, "!!map", p.line, p.column(p.at)
	mark := len(p.kids)
	for first := true; !p.eof && (first || p.indent == col); first = false {
		key, ok := p.key()
		if !ok {
			return nil, false
		}
		colon := p.at // just past the ':'
		p.at = skipSpaces(p.text, p.at, p.end)
		outer := p.take != nil && p.inItem == 0
		if outer {
			p.path = append(p.path, PathStep{Key: key})
		}
		var value *yaml.Node
		if p.restEmpty() {
			value, ok = p.nested(col, true, colon)
		} else {
			value, ok = p.inline(col, false)
		}
		if !ok {
			return nil, false
		}
		if outer {
			p.path = p.path[:len(p.path)-1]
		}
		p.kids = append(p.kids, key, value)
	}
	if !p.eof && p.indent > col {
		return nil, false
	}
	m.Content = p.collect(mark)
	return m, true
}

// collect takes the children gathered since mark off the stack.
func (p *fastParser) collect(mark int) []*yaml.Node {
	var out []*yaml.Node
	if p.inArena() {
		out = p.arena.content(len(p.kids) - mark)
	} else {
		out = make([]*yaml.Node, len(p.kids)-mark)
	}
	copy(out, p.kids[mark:])
	clear(p.kids[mark:])
	p.kids = p.kids[:mark]
	return out
}

// restEmpty reports whether nothing but a comment is left on the current
// line, and moves to the next content line if so.
func (p *fastParser) restEmpty() bool {
	if p.at < p.end && p.text[p.at] != '#' {
		return false
	}
	p.leftLine, p.leftStart = p.line, p.start
	p.next()
	return true
}

// nested is the value of a key (inMapping) or of a sequence entry, at
// column col, whose line held nothing more: the block on the lines below
// when there is one, else an empty scalar (null) at offset mark of the
// line the key or entry was on.
func (p *fastParser) nested(col int, inMapping bool, mark int) (*yaml.Node, bool) {
	if !p.eof && p.at-p.start == p.indent && (p.indent > col || (inMapping && p.indent == col && p.entryAt(p.at))) {
		return p.block(p.indent)
	}
	// The null's place is on the line restEmpty left.
	n := p.node()
	n.Kind, n.Tag, n.Line, n.Column = yaml.ScalarNode, "!!null", p.leftLine, columnOf(p.text[p.leftStart:mark])
	p.values++
	return n, true
}

// inline reads the scalar value at p.at, or, for a sequence entry
// (entry), a mapping starting there ("- key: value"); owner is the column
// of the key or entry it belongs to: a following line indented more would
// continue it.
func (p *fastParser) inline(owner int, entry bool) (*yaml.Node, bool) {
	at := p.at
	s, ok := p.scalar(false)
	if !ok {
		return nil, false
	}
	if p.at < p.end && p.text[p.at] == ':' {
		if !entry {
			return nil, false // "key: a: b", which yaml.v3 refuses
		}
		p.at = at
		return p.mapping(at - p.start)
	}
	if !p.restEmpty() {
		return nil, false
	}
	if !p.eof && p.indent > owner {
		return nil, false // a multi-line scalar: left to yaml.v3
	}
	p.values++
	return s, true
}

// key reads "key:" at p.at and leaves p.at past the ':'.
func (p *fastParser) key() (*yaml.Node, bool) {
	k, ok := p.scalar(true)
	if !ok || p.at >= p.end || p.text[p.at] != ':' {
		return nil, false
	}
	if p.at+1 < p.end && p.text[p.at+1] != ' ' {
		return nil, false
	}
	p.at++
	return k, true
}

// scalar reads a plain or quoted scalar at p.at on the current line and
// leaves p.at after it (and the spaces after it). A plain scalar ends
// before ": ", a ':' ending the line, or " #".
func (p *fastParser) scalar(isKey bool) (*yaml.Node, bool) {
	start := p.at
	n := p.node()
	n.Kind, n.Line, n.Column = yaml.ScalarNode, p.line, p.column(start)
	switch c := p.text[start]; c {
	case '\'', '"':
		value, end, ok := p.quoted(start)
		if !ok {
			return nil, false
		}
		n.Tag, n.Value = "!!str", value
		n.Style = yaml.DoubleQuotedStyle
		if c == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		p.at = end
	default:
		if !plainStart(p.text, start, p.end) {
			return nil, false
		}
		end := start
		for i := start; i < p.end; i++ {
			c := p.text[i]
			if c == ':' && (i+1 == p.end || p.text[i+1] == ' ') {
				break
			}
			if c == '#' && p.text[i-1] == ' ' {
				break
			}
			if c != ' ' {
				end = i + 1
			}
		}
		n.Value = p.text[start:end]
		n.Tag = plainTag(n.Value)
		p.at = end
	}
	if isKey && p.at-start > 1000 {
		return nil, false // yaml.v3 refuses a simple key over 1024 characters
	}
	p.at = skipSpaces(p.text, p.at, p.end)
	if p.at < p.end && p.text[p.at] == '#' && p.text[p.at-1] != ' ' {
		return nil, false // "'x'#": yaml.v3 reads that otherwise
	}
	return n, true
}

// plainStart reports whether a plain scalar may start at i: not with an
// indicator, except a '-' not followed by a space.
func plainStart(text string, i, end int) bool {
	switch text[i] {
	case '-':
		return i+1 < end && text[i+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// quoted reads the quoted scalar at start, closed on the same line; it
// returns its value and the offset after the closing quote.
func (p *fastParser) quoted(start int) (value string, end int, ok bool) {
	q := p.text[start]
	var b strings.Builder
	plain := start + 1 // start of the run not yet copied to b
	for i := start + 1; i < p.end; i++ {
		c := p.text[i]
		switch {
		case c == q && q == '\'' && i+1 < p.end && p.text[i+1] == '\'':
			b.WriteString(p.text[plain : i+1])
			i++
			plain = i + 1
		case c == q:
			if b.Len() == 0 {
				return p.text[start+1 : i], i + 1, true
			}
			b.WriteString(p.text[plain:i])
			return b.String(), i + 1, true
		case c == '\\' && q == '"':
			if i+1 >= p.end {
				return "", 0, false
			}
			var r string
			switch p.text[i+1] {
			case '"':
				r = `"`
			case '\\':
				r = `\`
			case 'n':
				r = "\n"
			case 't':
				r = "\t"
			default:
				return "", 0, false // the other escapes are left to yaml.v3
			}
			b.WriteString(p.text[plain:i])
			b.WriteString(r)
			i++
			plain = i + 1
		}
	}
	return "", 0, false // not closed on its line
}

func skipSpaces(text string, i, end int) int {
	for i < end && text[i] == ' ' {
		i++
	}
	return i
}

// plainTag is the tag yaml.v3 resolves a plain scalar to: its resolve,
// ported (gopkg.in/yaml.v3 resolve.go, MIT and Apache-2.0 licensed) for
// the tag alone; FuzzFastDecode compares the two.
func plainTag(v string) string {
	if v == "" {
		return "!!null"
	}
	switch v {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return "!!bool"
	case "~", "null", "Null", "NULL":
		return "!!null"
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float"
	case "<<":
		return "!!merge"
	}
	switch c := v[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return "!!float"
		}
	case c == '+' || c == '-' || (c >= '0' && c <= '9'):
		return numberTag(v)
	}
	return "!!str"
}

// decimalInt reports whether v is digits only, up to 18 (within int64),
// the first not 0 unless it is the only one (base 0 reads 0… as octal).
func decimalInt(v string) bool {
	if len(v) == 0 || len(v) > 18 || len(v) > 1 && v[0] == '0' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// numberTag is resolve's reading of a plain scalar starting with a digit
// or a sign.
func numberTag(v string) string {
	if decimalInt(v) {
		return "!!int" // a timeout's: no timestamp, and ParseInt's
	}
	if isTimestamp(v) {
		return "!!timestamp"
	}
	plain := strings.ReplaceAll(v, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "!!int"
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "!!int"
	}
	if yamlStyleFloat().MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float"
		}
	}
	for _, prefix := range []struct {
		p    string
		base int
		neg  bool
	}{{"0b", 2, false}, {"-0b", 2, true}, {"0o", 8, false}, {"-0o", 8, true}} {
		digits, ok := strings.CutPrefix(plain, prefix.p)
		if !ok {
			continue
		}
		if prefix.neg {
			digits = "-" + digits
		}
		if _, err := strconv.ParseInt(digits, prefix.base, 64); err == nil {
			return "!!int"
		}
		if _, err := strconv.ParseUint(digits, prefix.base, 64); err == nil && !prefix.neg {
			return "!!int"
		}
		break // the four prefixes exclude each other
	}
	return "!!str"
}

var yamlStyleFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
})

// isTimestamp is resolve's parseTimestamp, for the answer alone.
func isTimestamp(s string) bool {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, format := range []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00", "2006-1-2 15:4:5.999999999", "2006-1-2"} {
		if _, err := time.Parse(format, s); err == nil {
			return true
		}
	}
	return false
}
