package scan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// jv is a JSON value with the line it starts on: the agents' hook files
// are JSON, and a finding names the line of the hook it is about.
type jv struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	line int
	str  string // a string's value, a number's text
	b    bool
	keys []jkv // an object's members in file order (duplicates kept)
	arr  []*jv
}

type jkv struct {
	key  string
	line int
	val  *jv
}

// get is an object's member by key: the last one when the key repeats, as
// JSON.parse and Go's encoding/json both read it. nil when absent or not an
// object.
func (v *jv) get(key string) *jv {
	if v == nil || v.kind != 'o' {
		return nil
	}
	for i := len(v.keys) - 1; i >= 0; i-- {
		if v.keys[i].key == key {
			return v.keys[i].val
		}
	}
	return nil
}

// members are an object's members with repeated keys resolved (the last
// value wins, at the first key's place), as an agent iterating the parsed
// object sees them.
func (v *jv) members() []jkv {
	if v == nil || v.kind != 'o' {
		return nil
	}
	at := map[string]int{}
	var out []jkv
	for _, m := range v.keys {
		if i, ok := at[m.key]; ok {
			out[i].val = m.val
			continue
		}
		at[m.key] = len(out)
		out = append(out, m)
	}
	return out
}

// text is a string value; ok false for anything else.
func (v *jv) text() (string, bool) {
	if v == nil || v.kind != 's' {
		return "", false
	}
	return v.str, true
}

// kindName names a value's kind for a message.
func (v *jv) kindName() string {
	if v == nil {
		return "missing"
	}
	return map[byte]string{'o': "an object", 'a': "an array", 's': "a string", 'n': "a number",
		'b': "a boolean", 'z': "null"}[v.kind]
}

// jsonError is a file that is not JSON, with the line of the problem.
type jsonError struct {
	line int
	msg  string
}

func (e *jsonError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// parseJSON reads strict JSON (RFC 8259: no comments, no trailing commas,
// no NaN), one value and nothing after it.
func parseJSON(data []byte) (*jv, error) {
	p := &jparser{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	p.dec.UseNumber()
	v, err := p.value()
	if err == nil {
		if _, err2 := p.dec.Token(); err2 != io.EOF {
			err = &jsonError{line: p.lineAt(int(p.dec.InputOffset())), msg: "more than one JSON value"}
		}
	}
	if err != nil {
		var je *jsonError
		if errors.As(err, &je) {
			return nil, err
		}
		line := p.lineAt(int(p.dec.InputOffset()))
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = p.lineAt(int(se.Offset))
			if c := p.trailingComma(int(se.Offset)); c >= 0 {
				return nil, &jsonError{line: p.lineAt(c), msg: "a trailing comma (strict JSON allows none)"}
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, &jsonError{line: line, msg: "unexpected end of file"}
		}
		return nil, &jsonError{line: line, msg: err.Error()}
	}
	return v, nil
}

// parseJSONC reads JSON with // and /* */ comments (Gemini CLI's settings
// files): comments become spaces, so lines stay where they were.
func parseJSONC(data []byte) (*jv, error) { return parseJSON(stripComments(data)) }

type jparser struct {
	data  []byte
	dec   *json.Decoder
	depth int
}

// maxDepth bounds nesting: a hostile file of a million brackets is an
// error, not a stack overflow.
const maxDepth = 256

func (p *jparser) lineAt(off int) int {
	if off > len(p.data) {
		off = len(p.data)
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(p.data[:off], []byte{'\n'}) + 1
}

// trailingComma is the offset of a comma right before the closing bracket
// at off (whitespace between), -1 when that is not the mistake.
func (p *jparser) trailingComma(off int) int {
	if off < 0 || off >= len(p.data) || p.data[off] != '}' && p.data[off] != ']' {
		return -1
	}
	i := off - 1
	for i >= 0 && (p.data[i] == ' ' || p.data[i] == '\t' || p.data[i] == '\n' || p.data[i] == '\r') {
		i--
	}
	if i >= 0 && p.data[i] == ',' {
		return i
	}
	return -1
}

func (p *jparser) value() (*jv, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, err
	}
	line := p.lineAt(int(p.dec.InputOffset()) - 1)
	switch t := tok.(type) {
	case json.Delim:
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, &jsonError{line: line, msg: "nested too deeply"}
		}
		if t == '{' {
			v := &jv{kind: 'o', line: line}
			for p.dec.More() {
				kt, err := p.dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				kline := p.lineAt(int(p.dec.InputOffset()) - 1)
				val, err := p.value()
				if err != nil {
					return nil, err
				}
				v.keys = append(v.keys, jkv{key: key, line: kline, val: val})
			}
			_, err := p.dec.Token() // '}'
			return v, err
		}
		v := &jv{kind: 'a', line: line}
		for p.dec.More() {
			item, err := p.value()
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, item)
		}
		_, err := p.dec.Token() // ']'
		return v, err
	case string:
		return &jv{kind: 's', line: line, str: t}, nil
	case json.Number:
		return &jv{kind: 'n', line: line, str: t.String()}, nil
	case bool:
		return &jv{kind: 'b', line: line, b: t}, nil
	default:
		return &jv{kind: 'z', line: line}, nil
	}
}

// stripComments blanks // and /* */ comments outside strings, keeping
// newlines.
func stripComments(data []byte) []byte {
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		ch := out[i]
		switch {
		case inStr:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case ch == '/' && i+1 < len(out) && out[i+1] == '*':
			j := i
			for ; j < len(out) && !(out[j] == '*' && j+1 < len(out) && out[j+1] == '/' && j > i+1); j++ {
				if out[j] != '\n' {
					out[j] = ' '
				}
			}
			if j+1 < len(out) {
				out[j], out[j+1] = ' ', ' '
			}
			i = j + 1
		}
	}
	return out
}
