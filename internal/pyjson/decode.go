package pyjson

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting so a hostile document cannot exhaust the stack.
const maxDepth = 10000

// Decode parses one JSON value (surrounding white space allowed, nothing
// else after it) as Python's json.loads does: besides standard JSON it
// accepts NaN, Infinity and -Infinity (kept as json.Number), the last of
// duplicate keys wins (at the first one's place), and control characters
// inside strings are refused. Errors are worded like Python's.
func Decode(data []byte) (any, error) { return DecodeContext(nil, data) }

// DecodeContext is Decode that gives up when ctx is done (an interrupt, a
// hook's timeout), returning ctx's error: reading a large document is work
// a Ctrl-C or a deadline must be able to stop. A nil ctx never stops.
func DecodeContext(ctx context.Context, data []byte) (any, error) {
	d := decoder{s: data, ctx: ctx}
	d.space()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i < len(d.s) {
		return nil, d.errorf("Extra data")
	}
	return v, nil
}

// DecodeObject parses data that must be a JSON object.
func DecodeObject(data []byte) (*Object, error) {
	v, err := Decode(data)
	if err != nil {
		return nil, err
	}
	obj, ok := v.(*Object)
	if !ok {
		return nil, fmt.Errorf("expected a JSON object, got %s", TypeName(v))
	}
	return obj, nil
}

type decoder struct {
	s   []byte
	i   int
	ctx context.Context
	n   int // values read, to look at ctx every checkEvery of them
}

// checkEvery is how many values are read between looks at the context: a
// look costs a lock, a value tens of nanoseconds.
const checkEvery = 1024

// stopped reports ctx's error once in checkEvery values.
func (d *decoder) stopped() error {
	if d.ctx == nil {
		return nil
	}
	if d.n++; d.n%checkEvery != 0 {
		return nil
	}
	if err := d.ctx.Err(); err != nil {
		return fmt.Errorf("reading JSON stopped at char %d: %w", d.i, err)
	}
	return nil
}

// errorf words an error as Python does: "<msg>: line L column C (char N)",
// N counted in characters.
func (d *decoder) errorf(msg string) error { return d.errorAt(msg, d.i) }

func (d *decoder) errorAt(msg string, pos int) error {
	head := d.s[:min(pos, len(d.s))]
	line := 1 + strings.Count(string(head), "\n")
	col := utf8.RuneCount(head[strings.LastIndexByte(string(head), '\n')+1:]) + 1
	return fmt.Errorf("%s: line %d column %d (char %d)", msg, line, col, utf8.RuneCount(head))
}

// space skips JSON white space (Python's json knows only these four).
func (d *decoder) space() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// literal consumes word if the input continues with it. It compares only
// len(word) bytes: converting the whole rest of the input to a string, as
// strings.HasPrefix(string(d.s[d.i:]), word) would, copies it at every
// true, false, null and number and makes decoding quadratic.
func (d *decoder) literal(word string) bool {
	if len(d.s)-d.i >= len(word) && string(d.s[d.i:d.i+len(word)]) == word {
		d.i += len(word)
		return true
	}
	return false
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, d.errorf("Nesting too deep")
	}
	if err := d.stopped(); err != nil {
		return nil, err
	}
	if d.i >= len(d.s) {
		return nil, d.errorf("Expecting value")
	}
	switch c := d.s[d.i]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.list(depth)
	case c == '"':
		return d.str()
	case d.literal("null"):
		return nil, nil
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("NaN"):
		return json.Number("NaN"), nil
	case d.literal("Infinity"):
		return json.Number("Infinity"), nil
	case d.literal("-Infinity"):
		return json.Number("-Infinity"), nil
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, d.errorf("Expecting value")
}

func (d *decoder) object(depth int) (any, error) {
	d.i++ // {
	obj := &Object{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == '}' {
		d.i++
		return obj, nil
	}
	for {
		if d.i >= len(d.s) || d.s[d.i] != '"' {
			return nil, d.errorf("Expecting property name enclosed in double quotes")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.space()
		if d.i >= len(d.s) || d.s[d.i] != ':' {
			return nil, d.errorf("Expecting ':' delimiter")
		}
		d.i++
		d.space()
		val, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		// Python's dict keeps the last of duplicate keys, at the place of
		// the first.
		// Set indexes a wide object, so this stays linear.
		obj.Set(key.(string), val)
		d.space()
		if d.i < len(d.s) && d.s[d.i] == '}' {
			d.i++
			return obj, nil
		}
		if d.i >= len(d.s) || d.s[d.i] != ',' {
			return nil, d.errorf("Expecting ',' delimiter")
		}
		d.i++
		d.space()
	}
}

func (d *decoder) list(depth int) (any, error) {
	d.i++ // [
	list := []any{}
	d.space()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		return list, nil
	}
	for {
		val, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, val)
		d.space()
		if d.i < len(d.s) && d.s[d.i] == ']' {
			d.i++
			return list, nil
		}
		if d.i >= len(d.s) || d.s[d.i] != ',' {
			return nil, d.errorf("Expecting ',' delimiter")
		}
		d.i++
		d.space()
	}
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)? and keeps its
// text; Marshal re-spells it the way Python would print the value.
func (d *decoder) number() (any, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.s[d.i] == '-' {
		d.i++
	}
	if d.i < len(d.s) && d.s[d.i] == '0' {
		d.i++
	} else if digits() == 0 {
		d.i = start
		return nil, d.errorf("Expecting value")
	}
	// A fraction or exponent without digits is not part of the number (as
	// in Python, what follows is then "Extra data").
	if d.i+1 < len(d.s) && d.s[d.i] == '.' && d.s[d.i+1] >= '0' && d.s[d.i+1] <= '9' {
		d.i++
		digits()
	}
	if d.i < len(d.s) && (d.s[d.i] == 'e' || d.s[d.i] == 'E') {
		save := d.i
		d.i++
		if d.i < len(d.s) && (d.s[d.i] == '+' || d.s[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			d.i = save
		}
	}
	return json.Number(d.s[start:d.i]), nil
}

func (d *decoder) str() (any, error) {
	start := d.i
	d.i++ // "
	// The common string has no escape and no control character: it is one
	// slice of the input, copied once.
	if j := plainEnd(d.s, d.i); j < len(d.s) && d.s[j] == '"' && utf8.Valid(d.s[d.i:j]) {
		s := string(d.s[d.i:j])
		d.i = j + 1
		return s, nil
	}
	var sb strings.Builder
	for {
		if j := plainEnd(d.s, d.i); j > d.i {
			writeText(&sb, d.s[d.i:j])
			d.i = j
		}
		if d.i >= len(d.s) {
			return nil, d.errorAt("Unterminated string starting at", start)
		}
		switch c := d.s[d.i]; {
		case c == '"':
			d.i++
			return sb.String(), nil
		case c < 0x20:
			return nil, d.errorf("Invalid control character at")
		default: // the backslash
			if err := d.escape(&sb); err != nil {
				return nil, err
			}
		}
	}
}

// writeText appends a run of string bytes, invalid UTF-8 becoming U+FFFD
// (no quote, backslash or control byte can sit inside a multi-byte
// sequence, so reading the run alone decodes what reading on would).
func writeText(sb *strings.Builder, run []byte) {
	if utf8.Valid(run) {
		sb.Write(run)
		return
	}
	for len(run) > 0 {
		r, size := utf8.DecodeRune(run)
		sb.WriteRune(r)
		run = run[size:]
	}
}

// plainEnd returns where the run of string bytes from i that need no
// attention (no quote, backslash or control character) ends.
func plainEnd(s []byte, i int) int {
	for i < len(s) {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
		i++
	}
	return i
}

func (d *decoder) escape(sb *strings.Builder) error {
	at := d.i
	d.i++ // backslash
	if d.i >= len(d.s) {
		return d.errorAt("Unterminated string starting at", at)
	}
	c := d.s[d.i]
	d.i++
	switch c {
	case '"', '\\', '/':
		sb.WriteByte(c)
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'n':
		sb.WriteByte('\n')
	case 'r':
		sb.WriteByte('\r')
	case 't':
		sb.WriteByte('\t')
	case 'u':
		r, ok := d.hex4()
		if !ok {
			return d.errorAt("Invalid \\uXXXX escape", at)
		}
		if utf16.IsSurrogate(r) && r < 0xdc00 && d.i+1 < len(d.s) && d.s[d.i] == '\\' && d.s[d.i+1] == 'u' {
			save := d.i
			d.i += 2
			if r2, ok := d.hex4(); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
				r = utf16.DecodeRune(r, r2)
			} else {
				d.i = save
			}
		}
		// A lone surrogate (Python keeps it in the str) cannot live in a
		// Go string: it becomes U+FFFD.
		sb.WriteRune(r)
	default:
		return d.errorAt("Invalid \\escape", at)
	}
	return nil
}

func (d *decoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	var r rune
	for _, c := range d.s[d.i : d.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	d.i += 4
	return r, true
}

// TypeName names the JSON type of a decoded value, for messages.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, int, int64, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case *Object, map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
