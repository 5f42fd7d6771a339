package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
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
	// Embed is for bytes that encoding/json will carry (a MarshalJSON
	// method, a json.RawMessage): it refuses NaN and Infinity, so they are
	// written as placeholder strings that RestoreNonFinite turns back into
	// the bare words Python writes. Nothing else writes the placeholder.
	Embed bool
	// KeepNumbers writes numbers as they were read instead of as Python
	// would print their value, for files whose unknown content must
	// survive a rewrite byte for byte (the allowlist).
	KeepNumbers bool
	// SizeHint is how many bytes the output is expected to take: the
	// buffer is made that big at once instead of doubling its way there
	// (a 70 MB allowlist allocated twice its size and held one and a half
	// times it at the last doubling).
	SizeHint int
}

// Items is a list whose items are made as they are written, one at a
// time: a list of 200,000 objects is never built whole before it is
// written (SPEC §29 item 2).
type Items struct {
	Len  int
	Item func(i int) any
	// Wrote, when set, is told where each item's text is in the output
	// Marshal returns: [start, end).
	Wrote func(i, start, end int)
}

// The placeholders of non-finite numbers under Options.Embed. A JSON
// string starting with the escape `\/` is never written by this package
// nor by encoding/json (neither escapes '/'), so no real string can be
// mistaken for one.
const (
	embedNaN    = `"\/NaN"`
	embedInf    = `"\/Infinity"`
	embedNegInf = `"\/-Infinity"`
)

var restorer = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(embedNaN, "NaN", embedInf, "Infinity", embedNegInf, "-Infinity")
})

// RestoreNonFinite turns the placeholders Options.Embed wrote back into
// NaN, Infinity and -Infinity, as Python's json.dumps writes them. Call it
// on the output of encoding/json before it leaves the program.
func RestoreNonFinite(b []byte) []byte {
	if !bytes.Contains(b, []byte(`"\/`)) {
		return b
	}
	return []byte(restorer().Replace(string(b)))
}

// Marshal writes v like Python's json.dumps(v, ensure_ascii=False, ...).
// Supported values: the decoded types plus map[string]any, int, int64,
// float64, []string and json.RawMessage (inserted as given).
func Marshal(v any, opts Options) []byte {
	var b bytes.Buffer
	b.Grow(opts.SizeHint)
	w := writer{buf: &b, opts: opts}
	w.value(v, 0)
	return b.Bytes()
}

// MarshalAt is Marshal of v as it is written nested depth levels deep in
// a value Marshal writes with the same opts: a part made apart (on another
// CPU) and put in as a json.RawMessage writes the same bytes.
func MarshalAt(v any, depth int, opts Options) []byte {
	var b bytes.Buffer
	b.Grow(opts.SizeHint)
	w := writer{buf: &b, opts: opts}
	w.value(v, depth)
	return b.Bytes()
}

type writer struct {
	buf  *bytes.Buffer
	opts Options
}

func (w *writer) newline(depth int) {
	w.buf.WriteByte('\n')
	n := max(depth*w.opts.Indent, 0)
	for n > len(blanks) {
		w.buf.WriteString(blanks)
		n -= len(blanks)
	}
	w.buf.WriteString(blanks[:n])
}

// blanks are indentation written a run at a time.
const blanks = "                                                                "

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
		if w.opts.KeepNumbers {
			w.buf.WriteString(string(t))
		} else {
			w.number(PyNumber(t))
		}
	case int:
		w.buf.WriteString(strconv.Itoa(t))
	case int64:
		w.buf.WriteString(strconv.FormatInt(t, 10))
	case float64:
		w.number(FormatFloat(t))
	case string:
		WriteString(w.buf, t)
	case json.RawMessage:
		w.buf.Write(t)
	case []string:
		w.list(len(t), func(i int) any { return t[i] }, nil, depth)
	case []any:
		w.list(len(t), func(i int) any { return t[i] }, nil, depth)
	case Items:
		w.list(t.Len, t.Item, t.Wrote, depth)
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

func (w *writer) number(s string) {
	if w.opts.Embed {
		switch s {
		case "NaN":
			s = embedNaN
		case "Infinity":
			s = embedInf
		case "-Infinity":
			s = embedNegInf
		}
	}
	w.buf.WriteString(s)
}

func (w *writer) list(n int, item func(int) any, wrote func(i, start, end int), depth int) {
	if n == 0 {
		w.buf.WriteString("[]")
		return
	}
	w.buf.WriteByte('[')
	for i := range n {
		if i > 0 {
			w.sep()
		}
		if w.opts.Indent > 0 {
			w.newline(depth + 1)
		}
		start := w.buf.Len()
		w.value(item(i), depth+1)
		if wrote != nil {
			wrote(i, start, w.buf.Len())
		}
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

// PyNumber spells a JSON number the way Python's json.dumps writes the
// value json.loads reads from it: an integer keeps its exact digits ("-0"
// is 0), anything with a fraction or an exponent is a float printed by
// repr ("1E2" → 100.0, "1e-7" → 1e-07, "1e400" → Infinity), and NaN,
// Infinity and -Infinity stay as they are.
func PyNumber(n json.Number) string {
	s := string(n)
	if strings.ContainsAny(s, ".eE") || s == "NaN" || s == "Infinity" || s == "-Infinity" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return s // not a number at all: left as given
		}
		return FormatFloat(f)
	}
	if strings.TrimLeft(s, "-0") == "" && s != "" {
		return "0"
	}
	return s
}

// FormatFloat is Python's repr of a float: the shortest digits that read
// back as f; positional notation with at least one decimal ("100.0",
// "0.0001") when the decimal exponent is between -4 and 15, else
// scientific with a signed, at least two-digit exponent ("1e+16",
// "1.5e-05"); NaN, Infinity and -Infinity as json.dumps writes them.
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	sci := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(sci[strings.IndexByte(sci, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return sci // Go also writes at least two exponent digits
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsRune(s, '.') {
		s += ".0"
	}
	return s
}

// plainRun is the end of the run of ASCII bytes from i that WriteString
// writes unescaped.
func plainRun(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			break
		}
		i++
	}
	return i
}

// WriteString writes s as a JSON string with Python's ensure_ascii=False
// escaping: only '"', '\\' and control characters below U+0020 are escaped.
// Invalid UTF-8 is replaced by U+FFFD.
func WriteString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		// A run of bytes written as they are, at once: an allowlist of
		// 100,000 entries is 30 MB of such text (SPEC §29 item 2).
		if j := plainRun(s, i); j > i {
			b.WriteString(s[i:j])
			i = j
			continue
		}
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
