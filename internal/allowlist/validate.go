package allowlist

import "bytes"

// A validating walk of JSON text: it accepts exactly what encoding/json's
// Valid accepts (RFC 8259, nesting up to 10,000 levels) and, in the same
// pass, hands the caller the members of the top-level object and the
// elements of its "approvals" list. Reading the allowlist used to run
// json.Valid over the file and then walk it again.

// maxDepth is encoding/json's nesting limit: Valid refuses deeper text.
const maxDepth = 10000

type validator struct {
	data  []byte
	depth int
}

// value validates the value starting at i (no leading space) and returns
// the index just past it, or -1.
func (v *validator) value(i int) int {
	if i >= len(v.data) {
		return -1
	}
	switch c := v.data[i]; {
	case c == '{':
		return v.object(i, nil)
	case c == '[':
		return v.array(i, nil)
	case c == '"':
		return v.str(i)
	case c == '-' || c >= '0' && c <= '9':
		return v.number(i)
	case c == 't':
		return v.literal(i, "true")
	case c == 'f':
		return v.literal(i, "false")
	case c == 'n':
		return v.literal(i, "null")
	}
	return -1
}

// object validates the object at i; member, when not nil, is called with
// each key literal and value once the value is known valid.
func (v *validator) object(i int, member func(key, value []byte, at int) int) int {
	if v.depth++; v.depth > maxDepth {
		return -1
	}
	defer func() { v.depth-- }()
	i = skipSpace(v.data, i+1)
	if i < len(v.data) && v.data[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(v.data) || v.data[i] != '"' {
			return -1
		}
		kend := v.str(i)
		if kend < 0 {
			return -1
		}
		key := v.data[i:kend]
		i = skipSpace(v.data, kend)
		if i >= len(v.data) || v.data[i] != ':' {
			return -1
		}
		i = skipSpace(v.data, i+1)
		var vend int
		if member != nil {
			vend = member(key, nil, i)
		} else {
			vend = v.value(i)
		}
		if vend < 0 {
			return -1
		}
		var closed bool
		if i, closed = v.next(vend, '}'); closed || i < 0 {
			return i
		}
	}
}

// array validates the list at i; element, when not nil, is called with
// each valid element.
func (v *validator) array(i int, element func(value []byte)) int {
	if v.depth++; v.depth > maxDepth {
		return -1
	}
	defer func() { v.depth-- }()
	i = skipSpace(v.data, i+1)
	if i < len(v.data) && v.data[i] == ']' {
		return i + 1
	}
	for {
		end := v.value(i)
		if end < 0 {
			return -1
		}
		if element != nil {
			element(v.data[i:end])
		}
		var closed bool
		if i, closed = v.next(end, ']'); closed || i < 0 {
			return i
		}
	}
}

// next reads what follows a member or an element ending at end: a comma
// (i is then where the next one starts) or closer (closed, and i is just
// past it). Anything else is invalid: i is -1.
func (v *validator) next(end int, closer byte) (i int, closed bool) {
	i = skipSpace(v.data, end)
	switch {
	case i >= len(v.data):
		return -1, false
	case v.data[i] == ',':
		return skipSpace(v.data, i+1), false
	case v.data[i] == closer:
		return i + 1, true
	}
	return -1, false
}

// str validates the string literal at i (which is '"'). The common run of
// plain characters is skipped with IndexByte (vectorised) and checked for
// control characters in a tight loop.
//
// The quote found is kept until an escape passes it: searching again after
// every escape made a string of many escapes quadratic.
func (v *validator) str(i int) int {
	d := v.data
	i++
	q := -1 // where the next quote is, once searched
	for {
		if q < i {
			j := bytes.IndexByte(d[i:], '"')
			if j < 0 {
				return -1
			}
			q = i + j
		}
		j := q - i
		seg := d[i:q]
		k := bytes.IndexByte(seg, '\\')
		if k < 0 {
			if hasControl(seg) {
				return -1
			}
			return i + j + 1
		}
		// Plain up to the backslash, then one escape; the quote found may
		// be an escaped one (then i passes q and the search runs again).
		if hasControl(seg[:k]) {
			return -1
		}
		i += k + 1
		if i >= len(d) {
			return -1
		}
		switch d[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i++
		case 'u':
			if i+4 >= len(d) {
				return -1
			}
			for _, h := range d[i+1 : i+5] {
				if !isHex(h) {
					return -1
				}
			}
			i += 5
		default:
			return -1
		}
	}
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number validates -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func (v *validator) number(i int) int {
	d := v.data
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && isDigit(d[i]):
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	default:
		return -1
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return -1
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return -1
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	return i
}

func (v *validator) literal(i int, word string) int {
	if len(v.data)-i < len(word) || string(v.data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// validJSON is json.Valid.
func validJSON(data []byte) bool {
	v := &validator{data: data}
	i := skipSpace(data, 0)
	end := v.value(i)
	return end >= 0 && skipSpace(data, end) == len(data)
}
