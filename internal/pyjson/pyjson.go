// Package pyjson reads JSON keeping object key order and writes it the way
// Python's json.dumps does (ensure_ascii=False), so files and payloads this
// tool produces are byte-compatible with the Hermes agent's.
//
// Decoded values are nil, bool, json.Number, string, []any and *Object.
package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that remembers the order of its keys.
type Object struct {
	members []Member
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{} }

// Len is the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.members)
}

// Members returns the pairs in order. The slice must not be modified.
func (o *Object) Members() []Member {
	if o == nil {
		return nil
	}
	return o.members
}

// Keys returns the keys in order.
func (o *Object) Keys() []string {
	keys := make([]string, 0, o.Len())
	for _, m := range o.Members() {
		keys = append(keys, m.Key)
	}
	return keys
}

func (o *Object) index(key string) int {
	for i, m := range o.Members() {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	if i := o.index(key); i >= 0 {
		return o.members[i].Value, true
	}
	return nil, false
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool { return o.index(key) >= 0 }

// Set replaces the value of key in place, or appends key at the end.
func (o *Object) Set(key string, value any) *Object {
	if i := o.index(key); i >= 0 {
		o.members[i].Value = value
	} else {
		o.members = append(o.members, Member{key, value})
	}
	return o
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if i := o.index(key); i >= 0 {
		o.members = append(o.members[:i:i], o.members[i+1:]...)
	}
}

// Clone returns a shallow copy (values are shared).
func (o *Object) Clone() *Object {
	c := &Object{members: make([]Member, o.Len())}
	copy(c.members, o.Members())
	return c
}

// String returns the Python-style compact text of the object.
func (o *Object) String() string { return string(Marshal(o, Options{})) }

// MarshalJSON writes the object compactly, keys in order, so typed --json
// output can embed it.
func (o *Object) MarshalJSON() ([]byte, error) {
	return Marshal(o, Options{Compact: true}), nil
}

// UnmarshalJSON reads an object keeping key order.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := Decode(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*Object)
	if !ok {
		return errors.New("pyjson: not a JSON object")
	}
	*o = *obj
	return nil
}

// Decode parses one JSON value (surrounding white space allowed, nothing
// else after it).
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, errors.New("invalid character after top-level value")
		}
		return nil, err
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

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := &Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				val, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				// Python's json keeps the last of duplicate keys.
				obj.Set(key, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			list := []any{}
			for dec.More() {
				val, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return list, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil // nil, bool, json.Number, string
	}
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

// Options choose the output layout.
type Options struct {
	// Indent > 0 writes Python's indent=N layout (separators "," and ": ").
	Indent int
	// SortKeys sorts object keys (sort_keys=True).
	SortKeys bool
	// Compact uses "," and ":" (Go style) instead of Python's default
	// ", " and ": " when Indent is 0.
	Compact bool
}

// Marshal writes v like Python's json.dumps(v, ensure_ascii=False, ...).
// Supported values: the decoded types plus map[string]any, int, int64,
// float64, []string and json.RawMessage (inserted as given).
func Marshal(v any, opts Options) []byte {
	var b bytes.Buffer
	w := writer{buf: &b, opts: opts}
	w.value(v, 0)
	return b.Bytes()
}

type writer struct {
	buf  *bytes.Buffer
	opts Options
}

func (w *writer) newline(depth int) {
	w.buf.WriteByte('\n')
	for i := 0; i < depth*w.opts.Indent; i++ {
		w.buf.WriteByte(' ')
	}
}

func (w *writer) sep() {
	switch {
	case w.opts.Indent > 0 || w.opts.Compact:
		w.buf.WriteByte(',')
	default:
		w.buf.WriteString(", ")
	}
}

func (w *writer) colon() {
	if w.opts.Compact && w.opts.Indent == 0 {
		w.buf.WriteByte(':')
	} else {
		w.buf.WriteString(": ")
	}
}

func (w *writer) value(v any, depth int) {
	switch t := v.(type) {
	case nil:
		w.buf.WriteString("null")
	case bool:
		if t {
			w.buf.WriteString("true")
		} else {
			w.buf.WriteString("false")
		}
	case json.Number:
		w.buf.WriteString(t.String())
	case int:
		w.buf.WriteString(strconv.Itoa(t))
	case int64:
		w.buf.WriteString(strconv.FormatInt(t, 10))
	case float64:
		w.buf.WriteString(formatFloat(t))
	case string:
		WriteString(w.buf, t)
	case json.RawMessage:
		w.buf.Write(t)
	case []string:
		list := make([]any, len(t))
		for i, s := range t {
			list[i] = s
		}
		w.list(list, depth)
	case []any:
		w.list(t, depth)
	case *Object:
		if t == nil {
			w.buf.WriteString("null")
			return
		}
		w.object(t.members, depth)
	case map[string]any:
		members := make([]Member, 0, len(t))
		for k, val := range t {
			members = append(members, Member{k, val})
		}
		sort.Slice(members, func(i, j int) bool { return members[i].Key < members[j].Key })
		w.object(members, depth)
	default:
		// Fall back to encoding/json for anything else (typed structs).
		data, err := json.Marshal(t)
		if err != nil {
			w.buf.WriteString("null")
			return
		}
		w.buf.Write(data)
	}
}

func (w *writer) list(list []any, depth int) {
	if len(list) == 0 {
		w.buf.WriteString("[]")
		return
	}
	w.buf.WriteByte('[')
	for i, item := range list {
		if i > 0 {
			w.sep()
		}
		if w.opts.Indent > 0 {
			w.newline(depth + 1)
		}
		w.value(item, depth+1)
	}
	if w.opts.Indent > 0 {
		w.newline(depth)
	}
	w.buf.WriteByte(']')
}

func (w *writer) object(members []Member, depth int) {
	if len(members) == 0 {
		w.buf.WriteString("{}")
		return
	}
	if w.opts.SortKeys {
		sorted := make([]Member, len(members))
		copy(sorted, members)
		// Python sorts by code point; Go's string order is by UTF-8 bytes,
		// which is the same order.
		sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
		members = sorted
	}
	w.buf.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			w.sep()
		}
		if w.opts.Indent > 0 {
			w.newline(depth + 1)
		}
		WriteString(w.buf, m.Key)
		w.colon()
		w.value(m.Value, depth+1)
	}
	if w.opts.Indent > 0 {
		w.newline(depth)
	}
	w.buf.WriteByte('}')
}

// formatFloat writes a float the way Python's repr does for the common
// cases (integral floats keep ".0").
func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		s = strconv.FormatFloat(f, 'f', 1, 64)
	}
	return s
}

// WriteString writes s as a JSON string with Python's ensure_ascii=False
// escaping: only '"', '\\' and control characters below U+0020 are escaped.
// Invalid UTF-8 is replaced by U+FFFD.
func WriteString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b.WriteString(`\"`)
			case '\\':
				b.WriteString(`\\`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			default:
				if c < 0x20 {
					b.WriteString(`\u00`)
					b.WriteByte(hex[c>>4])
					b.WriteByte(hex[c&0xf])
				} else {
					b.WriteByte(c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\ufffd")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}
