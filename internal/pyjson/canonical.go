package pyjson

import (
	"bytes"
	"unicode/utf8"
)

// Canonical reports whether src, a JSON value that decodes, is exactly what
// Marshal writes for its decoded value at the given depth with opts (its
// lines indented for that depth, its first line not): then src can be
// written as it is (a json.RawMessage) instead of being decoded and
// encoded again. An allowlist's unchanged entries are, and re-encoding
// 200,000 of them cost a second of every protect --all (SPEC §29 item 2).
//
// Only the layout the allowlist writes is recognised (Indent > 0,
// SortKeys, KeepNumbers); for any other opts, and for anything not
// written exactly so (other spacing, unsorted or repeated keys, an escape
// Marshal would not write), the answer is false and the caller encodes.
func Canonical(src []byte, depth int, opts Options) bool {
	if opts.Indent <= 0 || !opts.SortKeys || !opts.KeepNumbers || opts.Compact || opts.Embed {
		return false
	}
	c := canon{s: src, indent: opts.Indent}
	return c.value(depth) && c.i == len(src)
}

type canon struct {
	s      []byte
	i      int
	indent int
}

// lit consumes t when src continues with it.
func (c *canon) lit(t string) bool {
	if len(c.s)-c.i < len(t) || string(c.s[c.i:c.i+len(t)]) != t {
		return false
	}
	c.i += len(t)
	return true
}

// newline consumes a line end and exactly the indentation of depth.
func (c *canon) newline(depth int) bool {
	if c.i >= len(c.s) || c.s[c.i] != '\n' {
		return false
	}
	c.i++
	for n := depth * c.indent; n > 0; {
		run := min(n, len(blanks))
		if !c.lit(blanks[:run]) {
			return false
		}
		n -= run
	}
	return true
}

func (c *canon) value(depth int) bool {
	if depth >= maxDepth || c.i >= len(c.s) {
		return false
	}
	switch c.s[c.i] {
	case '{':
		return c.object(depth)
	case '[':
		return c.list(depth)
	case '"':
		_, _, ok := c.str()
		return ok
	case 'n':
		return c.lit("null")
	case 't':
		return c.lit("true")
	case 'f':
		return c.lit("false")
	}
	return c.number()
}

// number consumes a number token; its text is written as read
// (KeepNumbers), so any spelling the decoder took is canonical.
func (c *canon) number() bool {
	if c.lit("NaN") || c.lit("Infinity") || c.lit("-Infinity") {
		return true
	}
	start := c.i
	for c.i < len(c.s) && numberByte[c.s[c.i]] {
		c.i++
	}
	return c.i > start
}

// numberByte and plainByte are the bytes of a number token, and those a
// string holds as they are.
var numberByte, plainByte [256]bool

func init() {
	for _, b := range []byte("+-.0123456789eE") {
		numberByte[b] = true
	}
	for b := 0x20; b < 256; b++ {
		plainByte[b] = b != '"' && b != '\\'
	}
}

func (c *canon) list(depth int) bool {
	c.i++ // '['
	if c.lit("]") {
		return true
	}
	for first := true; ; first = false {
		if !first && !c.lit(",") {
			break
		}
		if !c.newline(depth+1) || !c.value(depth+1) {
			return false
		}
	}
	return c.newline(depth) && c.lit("]")
}

func (c *canon) object(depth int) bool {
	c.i++ // '{'
	if c.lit("}") {
		return true
	}
	var prev []byte
	for first := true; ; first = false {
		if !first && !c.lit(",") {
			break
		}
		if !c.newline(depth + 1) {
			return false
		}
		key, escaped, ok := c.str()
		// Sorted as Marshal sorts them (by UTF-8 bytes, as Python by code
		// point), each key once: a repeated key decodes to one member. A
		// key with an escape would have to be decoded to be compared:
		// none of the allowlist's have one, so such an object is encoded.
		if !ok || escaped || (!first && bytes.Compare(prev, key) >= 0) || !c.lit(": ") || !c.value(depth+1) {
			return false
		}
		prev = key
	}
	return c.newline(depth) && c.lit("}")
}

// str consumes a string written as WriteString writes it and returns its
// content between the quotes, and whether it holds an escape. WriteString
// escapes only '"', '\\' and the controls, with the short forms where JSON
// has them and lower-case \u00XX otherwise, and writes every other
// character as it is (valid UTF-8).
func (c *canon) str() (content []byte, escaped, ok bool) {
	c.i++ // '"'
	start := c.i
	for c.i < len(c.s) {
		// The run of plain bytes, with the index in a register.
		i, src := c.i, c.s
		for i < len(src) && plainByte[src[i]] {
			i++
		}
		if c.i = i; i == len(c.s) {
			break
		}
		b := c.s[i]
		switch {
		case b == '"':
			content = c.s[start:c.i]
			c.i++
			return content, escaped, utf8.Valid(content)
		case b == '\\':
			if c.i+1 >= len(c.s) {
				return nil, false, false
			}
			escaped = true
			switch c.s[c.i+1] {
			case '"', '\\', 'n', 'r', 't', 'b', 'f':
				c.i += 2
			case 'u':
				if !c.control() {
					return nil, false, false
				}
				c.i += 6
			default:
				return nil, false, false
			}
		default: // a control character
			return nil, false, false
		}
	}
	return nil, false, false
}

// control reports whether the \u escape at c.i is one WriteString writes:
// a control character without a short form, in lower-case hex.
func (c *canon) control() bool {
	const hex = "0123456789abcdef"
	if c.i+6 > len(c.s) {
		return false
	}
	e := c.s[c.i : c.i+6]
	if string(e[2:4]) != "00" || e[4] > '1' || e[4] < '0' || bytes.IndexByte([]byte(hex), e[5]) < 0 {
		return false
	}
	switch ch := (e[4]-'0')<<4 | byte(bytes.IndexByte([]byte(hex), e[5])); ch {
	case '\n', '\r', '\t', '\b', '\f':
		return false
	}
	return true
}
