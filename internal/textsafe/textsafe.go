// Package textsafe makes text from files, payloads and hooks safe to print
// on a terminal (SPEC §13 rule 9). A carriage return, an escape sequence or
// a bidirectional override in a script can hide a line or make code read
// differently from what runs; here each such character is shown as a
// visible escape instead: C0 and C1 controls and DEL as \r, \x1b, \x85 …,
// Unicode bidirectional controls, zero-width characters and the line and
// paragraph separators as \u202e …, and bytes that are not UTF-8 as \xff.
// Tabs and printable Unicode stay as they are. Backslashes are left alone,
// so a path or a regular expression reads as written, except in Command.
//
// --json output does not use this: JSON escapes what it must.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line escapes s for one line of output: a newline is shown as \n too.
func Line(s string) string { return escape(s, false, false) }

// Text escapes a block of lines (a script, a diff, a hook's stderr): each
// line is escaped and the newlines between them are kept.
func Text(s string) string { return escape(s, true, false) }

// Command escapes a command (or a word of one) for display as Line does,
// and shows a backslash as \\ (SPEC §24 item 6), so that a literal \n in
// a command and a newline never look alike. A command offered for pasting
// is quoted with ShellQuote instead, never escaped for display.
func Command(s string) string { return escape(s, false, true) }

// Lines escapes each of lines as a Line.
func Lines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Line(l)
	}
	return out
}

func escape(s string, keepNewlines, backslash bool) string {
	plain := &plainASCII[mode(keepNewlines, backslash)]
	i := 0
	// Eight bytes at a time while none of them is a control byte, DEL,
	// a backslash or past ASCII: such bytes are plain in every mode.
	for ; i+8 <= len(s); i += 8 {
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if (x-0x20*ones)&^x&highs != 0 || x&highs != 0 || zeroByte(x^0x7f*ones) || zeroByte(x^'\\'*ones) {
			break
		}
	}
	for i < len(s) {
		// ASCII, as needsEscape judges it, by table: list escapes a few
		// strings of each of 755,000 hooks.
		if plain[s[i]] {
			i++
			continue
		}
		if s[i] < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if needsEscape(r, size, keepNewlines) || backslash && r == '\\' {
			break
		}
		i += size
	}
	if i == len(s) {
		return s // the usual case: nothing to do, no copy
	}
	return escapeFrom(s, i, keepNewlines, backslash)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroByte reports whether one of x's bytes is 0.
func zeroByte(x uint64) bool { return (x-ones)&^x&highs != 0 }

// plainASCII[mode][c] is true for an ASCII byte c that escape leaves as it
// is in that mode; false for the others and for every byte of a longer
// UTF-8 sequence.
var plainASCII = func() (t [4][256]bool) {
	for _, keep := range []bool{false, true} {
		for _, backslash := range []bool{false, true} {
			for c := range utf8.RuneSelf {
				t[mode(keep, backslash)][c] = !(c < 0x20 && c != '\t' && (c != '\n' || !keep) || c == 0x7f || backslash && c == '\\')
			}
		}
	}
	return t
}()

func mode(keepNewlines, backslash bool) int {
	m := 0
	if keepNewlines {
		m |= 1
	}
	if backslash {
		m |= 2
	}
	return m
}

// escapeFrom is s escaped, s[:i] known to need nothing.
func escapeFrom(s string, i int, keepNewlines, backslash bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case backslash && r == '\\':
			b.WriteString(`\\`)
		case !needsEscape(r, size, keepNewlines):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether the rune r (size bytes of input) must not
// reach a terminal as is.
func needsEscape(r rune, size int, keepNewlines bool) bool {
	switch {
	case r == utf8.RuneError && size == 1: // a byte that is not UTF-8
		return true
	case r == '\t':
		return false
	case r == '\n':
		return !keepNewlines
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f: // C0, DEL, C1
		return true
	case r < 0x200b:
		return r == 0x061c // Arabic letter mark
	}
	return isHidden(r)
}

// isHidden: characters that change how text around them is displayed or
// are invisible.
func isHidden(r rune) bool {
	switch {
	case r >= 0x200b && r <= 0x200f: // zero-width space, non-joiner, joiner; LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line and paragraph separators; LRE RLE PDF LRO RLO
		return true
	case r >= 0x2060 && r <= 0x2069: // word joiner, invisible operators; LRI RLI FSI PDI
		return true
	case r == 0xfeff: // zero-width no-break space (BOM)
		return true
	}
	return false
}

// ShellQuote quotes s for pasting into a shell (SPEC §24 item 6): as
// Python's shlex.quote does when s holds nothing that Line would escape,
// else as bash's $'…', with the same escapes, so the pasted word is s
// itself and nothing hostile reaches the terminal.
func ShellQuote(s string) string {
	if Line(s) == s {
		return shlexQuote(s)
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == utf8.RuneError && size == 1, r < 0x100 && needsEscape(r, size, false):
			fmt.Fprintf(&b, `\x%02x`, s[i])
			if size > 1 { // a C1 control: both bytes of its UTF-8
				fmt.Fprintf(&b, `\x%02x`, s[i+1])
			}
		case needsEscape(r, size, false):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}

// shlexQuote is Python's shlex.quote (as shell.Quote, which this leaf
// cannot import).
func shlexQuote(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_@%+=:,./-", c) >= 0) {
			return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
		}
	}
	return s
}
