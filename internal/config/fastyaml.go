package config

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// decodeFast reads the shape big configs have (block mappings and block
// sequences of one-line plain scalars: no comments, quotes, flow
// collections, anchors, tags or multi-line values) straight into the tree
// yaml.v3 builds for it, node for node (kind, tag, value, line, column), in
// a fifth of yaml.v3's time and with one allocation for all the strings
// (SPEC §29 item 2: yaml.v3 took 7 s of `list`'s 26 s on a 55 MB config).
// ok is false for anything else, and the caller decodes with yaml.v3:
// whatever this reads, yaml.v3 reads the same (TestDecodeFastMatchesYAML,
// FuzzDecodeFast).
func decodeFast(body []byte) (doc yaml.Node, ok bool) {
	for _, b := range body {
		// Tabs, carriage returns, comments and anything outside printable
		// ASCII (columns count runes; a BOM) go to yaml.v3.
		if b >= 0x7f || b < 0x20 && b != '\n' || b == '#' {
			return doc, false
		}
	}
	p := &fastParser{s: string(body)}
	defer func() {
		if r := recover(); r != nil {
			if r != errNotFast {
				panic(r)
			}
			ok = false
		}
	}()
	p.next()
	if p.eof || p.indent != 0 {
		return doc, false
	}
	root := p.block(0)
	if !p.eof {
		return doc, false
	}
	return yaml.Node{Kind: yaml.DocumentNode, Line: root.Line, Column: root.Column, Content: []*yaml.Node{root}}, true
}

type notFast struct{}

// errNotFast unwinds decodeFast at the first thing it does not read.
var errNotFast = &notFast{}

func fail() { panic(errNotFast) }

// fastParser walks s a line at a time. The current line is s[start:end]
// (trailing spaces cut), numbered num, its text starting at column indent
// (0-based); for an item of a block sequence, indent is moved past the
// "- " to where the item's own text starts.
type fastParser struct {
	s                       string
	pos                     int // where the next line starts
	num, start, end, indent int
	eof                     bool
	lines                   int // lines read, blank ones included

	nodes []yaml.Node  // allocated a slab at a time
	ptrs  []*yaml.Node // Content slices are cut from this, capped
	stack []*yaml.Node // children of the collections being read
	tags  map[string]string
}

// next moves to the next line that is not blank.
func (p *fastParser) next() {
	for p.pos < len(p.s) {
		p.lines++
		start := p.pos
		end := strings.IndexByte(p.s[start:], '\n')
		if end < 0 {
			end = len(p.s)
			p.pos = end
		} else {
			end += start
			p.pos = end + 1
		}
		for end > start && p.s[end-1] == ' ' {
			end--
		}
		if end == start {
			continue
		}
		i := start
		for p.s[i] == ' ' {
			i++
		}
		p.num, p.start, p.end, p.indent = p.lines, start, end, i-start
		return
	}
	p.eof = true
}

func (p *fastParser) text() string { return p.s[p.start+p.indent : p.end] }

// dash reports whether the current line is an item of a block sequence.
func (p *fastParser) dash() bool {
	t := p.text()
	return t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

func (p *fastParser) node(kind yaml.Kind, tag, value string, line, col int) *yaml.Node {
	if len(p.nodes) == 0 {
		p.nodes = make([]yaml.Node, 1024)
	}
	n := &p.nodes[0]
	p.nodes = p.nodes[1:]
	n.Kind, n.Tag, n.Value, n.Line, n.Column = kind, tag, value, line, col
	return n
}

// content is the children pushed since base, as a slice of its own.
func (p *fastParser) content(base int) []*yaml.Node {
	kids := p.stack[base:]
	if len(p.ptrs) < len(kids) {
		p.ptrs = make([]*yaml.Node, max(4096, len(kids)))
	}
	c := p.ptrs[:len(kids):len(kids)]
	p.ptrs = p.ptrs[len(kids):]
	copy(c, kids)
	p.stack = p.stack[:base]
	return c
}

// block reads the collection whose lines start at column col.
func (p *fastParser) block(col int) *yaml.Node {
	if p.dash() {
		return p.sequence(col)
	}
	return p.mapping(col)
}

func (p *fastParser) mapping(col int) *yaml.Node {
	m := p.node(yaml.MappingNode, "!!map", "", p.num, col+1)
	base := len(p.stack)
	for !p.eof && p.indent == col {
		t := p.text()
		key, rest, restAt := splitKey(t)
		if key == "" || p.dash() {
			fail()
		}
		line := p.num
		k := p.scalar(key, line, col+1)
		var v *yaml.Node
		if rest == "" {
			// The value is the block on the lines below: indented more,
			// or a sequence at the key's own column.
			p.next()
			switch {
			case p.eof:
				fail() // a null value: yaml.v3 places it
			case p.indent > col:
				v = p.block(p.indent)
			case p.indent == col && p.dash():
				v = p.sequence(col)
			default:
				fail()
			}
		} else {
			v = p.scalar(rest, line, col+restAt+1)
			p.next()
		}
		if !p.eof && p.indent > col {
			fail() // a continued scalar, or a block yaml.v3 would refuse
		}
		p.stack = append(p.stack, k, v)
	}
	m.Content = p.content(base)
	return m
}

func (p *fastParser) sequence(col int) *yaml.Node {
	s := p.node(yaml.SequenceNode, "!!seq", "", p.num, col+1)
	base := len(p.stack)
	for !p.eof && p.indent == col && p.dash() {
		t := p.text()
		j := 1
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if j == len(t) {
			fail() // "-" alone: the item is on the lines below
		}
		p.indent = col + j
		var item *yaml.Node
		if key, _, _ := splitKey(t[j:]); key != "" {
			item = p.mapping(col + j)
		} else {
			if p.dash() {
				fail() // "- - x"
			}
			item = p.scalar(t[j:], p.num, col+j+1)
			p.next()
		}
		if !p.eof && p.indent > col {
			fail()
		}
		p.stack = append(p.stack, item)
	}
	s.Content = p.content(base)
	return s
}

// splitKey splits "key: rest" at the first colon followed by a space or
// the end of the line; key is "" when t is not such a line. restAt is
// where rest starts in t.
func splitKey(t string) (key, rest string, restAt int) {
	for i := 0; i < len(t); i++ {
		if t[i] != ':' || i+1 < len(t) && t[i+1] != ' ' {
			continue
		}
		if i > 1000 || !plainKey(t[:i]) { // yaml.v3 refuses implicit keys past 1024 characters
			fail()
		}
		j := i + 1
		for j < len(t) && t[j] == ' ' {
			j++
		}
		return t[:i], t[j:], j
	}
	return "", "", 0
}

// plainKey: the keys a config has (event and setting names).
func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_':
		case (c == '-' || c == '.') && i > 0:
		default:
			return false
		}
	}
	return true
}

// scalar is the plain scalar v, refused unless it is one yaml.v3 reads as
// v: no indicator first, no ": " or trailing colon inside (the global
// check already refused '#').
func (p *fastParser) scalar(v string, line, col int) *yaml.Node {
	if strings.IndexByte("-?:,[]{}&*!|>'\"%@`<", v[0]) >= 0 || v[len(v)-1] == ':' || strings.Contains(v, ": ") {
		fail()
	}
	return p.node(yaml.ScalarNode, p.tag(v), v, line, col)
}

// tag is the tag yaml.v3 resolves the plain scalar v to.
func (p *fastParser) tag(v string) string {
	switch c := v[0]; {
	case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '~':
		// Only these words of the letters yaml.v3 looks up resolve to
		// something other than a string.
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool"
		case "~", "null", "Null", "NULL":
			return "!!null"
		}
		return "!!str"
	case '0' <= c && c <= '9' || c == '+' || c == '.':
	default:
		return "!!str"
	}
	// Numbers, timestamps and the like: asked of yaml.v3, once per value.
	if t, ok := p.tags[v]; ok {
		return t
	}
	var n yaml.Node
	if yaml.Unmarshal([]byte(v), &n) != nil || len(n.Content) != 1 {
		fail()
	}
	c := n.Content[0]
	if c.Kind != yaml.ScalarNode || c.Style != 0 || c.Value != v {
		fail()
	}
	if p.tags == nil {
		p.tags = map[string]string{}
	}
	p.tags[v] = c.Tag
	return c.Tag
}
