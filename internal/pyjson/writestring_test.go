package pyjson

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// WriteString, writing runs of plain bytes at once, writes what the byte
// by byte escaping did, for random strings of quotes, backslashes, control
// characters, multi-byte and invalid UTF-8.
func TestWriteStringRuns(t *testing.T) {
	pieces := []string{"a", "/h.sh ", "\"", "\\", "\n", "\r", "\t", "\b", "\f", "\x01", "\x1f", " ", "\x7f", "é", "€", "😀", "\xff", "\xe2\x82", "\u2028"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var s string
		for n := r.IntN(10); n > 0; n-- {
			s += pieces[r.IntN(len(pieces))]
		}
		var got, want bytes.Buffer
		WriteString(&got, s)
		writeStringByByte(&want, s)
		if got.String() != want.String() {
			t.Fatalf("%q: wrote %q, want %q", s, got.String(), want.String())
		}
	}
}

// writeStringByByte is WriteString as it was: each byte on its own.
func writeStringByByte(b *bytes.Buffer, s string) {
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

// Indentation deeper than one run of blanks is whole.
func TestDeepIndent(t *testing.T) {
	var v any = "x"
	for range 40 {
		v = []any{v}
	}
	out := string(Marshal(v, Options{Indent: 2}))
	if want := "\n" + string(bytes.Repeat([]byte(" "), 80)) + `"x"`; !bytes.Contains([]byte(out), []byte(want)) {
		t.Fatalf("no line indented by 80 in:\n%s", out)
	}
}

// TestItemsAsList: a list made item by item (Items) is written exactly as
// the same list built whole, at any depth and layout; the size hint
// changes nothing written.
func TestItemsAsList(t *testing.T) {
	obj := NewObject().Set("b", 1).Set("a", []any{"x", NewObject().Set("k", nil)})
	whole := []any{obj, "s", []any{}, NewObject(), 2.5}
	for _, opts := range []Options{{}, {Indent: 2, SortKeys: true}, {Compact: true}, {Indent: 4, SizeHint: 1 << 20}} {
		want := Marshal(NewObject().Set("approvals", whole), opts)
		got := Marshal(NewObject().Set("approvals", Items{Len: len(whole), Item: func(i int) any { return whole[i] }}), opts)
		if string(got) != string(want) {
			t.Errorf("%+v:\n got %s\nwant %s", opts, got, want)
		}
	}
	if got := string(Marshal(Items{}, Options{Indent: 2})); got != "[]" {
		t.Errorf("empty Items: %s", got)
	}
}
