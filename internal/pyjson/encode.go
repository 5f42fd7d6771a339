package pyjson

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

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
