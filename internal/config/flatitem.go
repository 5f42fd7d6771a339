package config

import "gopkg.in/yaml.v3"

// flatPairsMax is how many keys a flat item may have.
const flatPairsMax = 8

// readFlatItem is readItem for the usual hook entry, a flat mapping with
// a key on each line ("- matcher: terminal", then "  command: /h/x.sh",
// "  timeout: 10"): each key a word, each value a plain scalar of
// printable ASCII holding no ':' or '#', or a quoted one with nothing to
// unescape; no blank or comment line. A key given twice is read as
// readItem reads it, for the check that refuses it. ok is false for any
// other text, which readItem reads by the general rules: the two must
// give the same tree and values for every text readFlatItem takes
// (TestFlatItemAsGeneral, FuzzFlatItem). A 55 MB config's 755,000 items
// are each read twice (checked, then parsed), 0.8 µs each by the general
// rules, 0.3 µs flat.
func readFlatItem(text string, line int, a *nodeArena) (item *yaml.Node, values int, ok bool) {
	i := skipSpaces(text, 0, len(text))
	if i+1 >= len(text) || text[i] != '-' || text[i+1] != ' ' {
		return nil, 0, false
	}
	i = skipSpaces(text, i+2, len(text))
	col := i // of the keys, on every line
	var kids [2 * flatPairsMax]*yaml.Node
	n := 0
	for lineStart := 0; ; line++ {
		k, at := flatKey(text, i)
		if k == "" || n == len(kids) {
			return nil, 0, false
		}
		key := a.node()
		key.Kind, key.Tag, key.Value, key.Line, key.Column = yaml.ScalarNode, plainTag(k), k, line, i-lineStart+1
		at = skipSpaces(text, at+1, len(text)) // past the ':'
		value, end := flatValue(text, at, a)
		if value == nil {
			return nil, 0, false
		}
		value.Line, value.Column = line, at-lineStart+1
		kids[n], kids[n+1] = key, value
		n += 2
		values++
		if end == len(text) {
			break
		}
		// The next line holds the next key, at the same column.
		lineStart = end + 1
		i = skipSpaces(text, lineStart, len(text))
		if i-lineStart != col || i == len(text) {
			return nil, 0, false
		}
	}
	m := a.node()
	m.Kind, m.Tag, m.Line, m.Column = yaml.MappingNode, "!!map", kids[0].Line, kids[0].Column
	m.Content = a.content(n)
	copy(m.Content, kids[:n])
	return m, values, true
}

// flatKey reads a word and the ": " after it at i; at is the ':'.
func flatKey(text string, i int) (key string, at int) {
	start := i
	for i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] == '_' || i > start && (text[i] >= '0' && text[i] <= '9' || text[i] == '-')) {
		i++
	}
	if i == start || i-start > 1000 || i+1 >= len(text) || text[i] != ':' || text[i+1] != ' ' {
		return "", 0
	}
	return text[start:i], i
}

// flatValue reads the rest of the line from at as a flat item's value;
// end is the offset of the line's end ('\n' or the text's). It is nil
// for a value the flat reader does not take.
func flatValue(text string, at int, a *nodeArena) (n *yaml.Node, end int) {
	if at >= len(text) {
		return nil, 0
	}
	switch q := text[at]; q {
	case '"', '\'':
		// Quoted, closed at the line's end, nothing inside to unescape.
		end = at + 1
		for end < len(text) && text[end] != '\n' {
			end++
		}
		if end-at < 2 || text[end-1] != q {
			return nil, 0
		}
		inner := text[at+1 : end-1]
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; !flatPlain[c] && c != ':' && c != '#' || c == q || c == '\\' {
				return nil, 0
			}
		}
		n = a.node()
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", inner, yaml.DoubleQuotedStyle
		if q == '\'' {
			n.Style = yaml.SingleQuotedStyle
		}
		return n, end
	}
	end = at
	for end < len(text) && flatPlain[text[end]] {
		end++
	}
	if end == at || end < len(text) && text[end] != '\n' || text[end-1] == ' ' || !plainStart(text, at, end) {
		return nil, 0
	}
	v := text[at:end]
	n = a.node()
	n.Kind, n.Tag, n.Value = yaml.ScalarNode, plainTag(v), v
	return n, end
}

// flatPlain holds the bytes a flat item's plain value may hold: printable
// ASCII but ':' and '#'.
var flatPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != ':' && c != '#'
	}
	return t
}()
