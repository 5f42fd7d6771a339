package allowlist

import (
	"bytes"
	"encoding/json"
)

// A small walker over JSON text that json.Valid (or, for NaN and the
// infinities, pyjson) has already accepted: it
// slices members and elements without allocating a decoded tree, which is
// what keeps reading a 10,000-entry allowlist within a few milliseconds.
// On valid input it cannot fail; it never reads past the slice it is given.

// eachMember calls fn for every member of the object raw, in order, with
// the key's literal (quotes included; see keyName). A repeated key is seen
// twice; callers keep the last, as Python does.
func eachMember(raw []byte, fn func(key, value []byte)) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] == '"' {
		end := stringEnd(raw, i)
		key := raw[i:end]
		i = skipSpace(raw, end)
		i = skipSpace(raw, i+1) // ':'
		vend := valueEnd(raw, i)
		fn(key, raw[i:vend])
		i = skipSpace(raw, vend)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
}

// eachElement calls fn for every element of the list raw.
func eachElement(raw []byte, fn func(value []byte)) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return
	}
	i = skipSpace(raw, i+1)
	for i < len(raw) && raw[i] != ']' {
		end := valueEnd(raw, i)
		fn(raw[i:end])
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the string starting at raw[i]. A
// quote ends the string unless an odd run of backslashes precedes it.
func stringEnd(raw []byte, i int) int {
	for i++; i < len(raw); {
		j := bytes.IndexByte(raw[i:], '"')
		if j < 0 {
			return len(raw)
		}
		q := i + j
		n := 0
		for k := q - 1; k >= i && raw[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		i = q + 1
	}
	return len(raw)
}

// valueEnd returns the index just past the value starting at raw[i].
func valueEnd(raw []byte, i int) int {
	if i >= len(raw) {
		return i
	}
	switch raw[i] {
	case '"':
		return stringEnd(raw, i)
	case '{', '[':
		depth := 0
		for ; i < len(raw); i++ {
			switch raw[i] {
			case '"':
				i = stringEnd(raw, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(raw)
	}
	for i < len(raw) && !bytes.ContainsRune([]byte(" \t\r\n,}]"), rune(raw[i])) {
		i++
	}
	return i
}

// unquote decodes a JSON string literal; escapes are rare, so the common
// case is one slice conversion.
func unquote(lit []byte) string {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	json.Unmarshal(lit, &s)
	return s
}

// keyBytes returns the key a literal spells. Callers compare it with
// switch string(keyBytes(k)), which Go does without allocating.
func keyBytes(lit []byte) []byte {
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	return []byte(unquote(lit))
}
