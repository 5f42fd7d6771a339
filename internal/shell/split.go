package shell

import (
	"errors"
	"strings"
)

// Python's shlex error messages, kept verbatim so a parse error reads the
// same as it did in the Python implementation.
var (
	errNoClosingQuote = errors.New("No closing quotation")
	errNoEscapedChar  = errors.New("No escaped character")
)

// lexer states, named after the ones in Python's shlex.read_token.
const (
	stBlank  = iota // between words (' ')
	stWord          // inside a word ('a')
	stSingle        // inside '...'
	stDouble        // inside "..."
	stEscape        // just after a backslash
)

// Split splits s into words exactly as Python's shlex.split(s) does (posix
// mode, no comments): whitespace is ' ', '\t', '\r' and '\n'; single quotes
// are literal; inside double quotes a backslash escapes only '"' and '\';
// outside quotes a backslash escapes any character; '#' is ordinary;
// adjacent quoted and unquoted parts join into one word; and an empty pair
// of quotes is an empty word.
//
// The input is walked byte by byte: every special character is ASCII, so
// multi-byte UTF-8 (and even invalid bytes) pass through unchanged.
func Split(s string) ([]string, error) {
	var (
		words []string
		tok   strings.Builder
		// Being in stWord means a word exists even if tok is empty: a
		// closing quote lands there, which is how '' becomes a word.
		state = stBlank
		// where to go back to after an escaped character
		escapedFrom = stWord
	)
	emit := func() {
		words = append(words, tok.String())
		tok.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if state == stBlank && !specialInSplit(c) {
			// A run of plain bytes: a whole word is a substring of s,
			// no copy (755,000 hooks are split to list them).
			j := i + 1
			for j < len(s) && !specialInSplit(s[j]) {
				j++
			}
			if j == len(s) || s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n' {
				words = append(words, s[i:j])
			} else {
				tok.WriteString(s[i:j]) // a quote or an escape goes on
				state = stWord
			}
			i = j - 1
			continue
		}
		switch state {
		case stBlank, stWord:
			switch c {
			case ' ', '\t', '\r', '\n':
				if state == stWord {
					emit()
				}
				state = stBlank
			case '\\':
				escapedFrom, state = stWord, stEscape
			case '\'':
				state = stSingle
			case '"':
				state = stDouble
			default:
				tok.WriteByte(c)
				state = stWord
			}
		case stSingle:
			if c == '\'' {
				state = stWord
			} else {
				tok.WriteByte(c)
			}
		case stDouble:
			switch c {
			case '"':
				state = stWord
			case '\\':
				escapedFrom, state = stDouble, stEscape
			default:
				tok.WriteByte(c)
			}
		case stEscape:
			// Inside double quotes only the quote and the backslash itself
			// can be escaped; anything else keeps its backslash.
			if escapedFrom == stDouble && c != '"' && c != '\\' {
				tok.WriteByte('\\')
			}
			tok.WriteByte(c)
			state = escapedFrom
		}
	}
	switch state {
	case stSingle, stDouble:
		return nil, errNoClosingQuote
	case stEscape:
		return nil, errNoEscapedChar
	case stWord:
		emit()
	}
	return words, nil
}

// specialInSplit reports whether Split treats c other than as a byte of a
// word: a blank, a quote or a backslash.
func specialInSplit(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\' || c == '\'' || c == '"'
}

// Quote returns s quoted so that Split gives it back as one word, exactly as
// Python's shlex.quote does.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(s); i++ {
		if !isSafeQuoteByte(s[i]) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// isSafeQuoteByte mirrors shlex's _find_unsafe: [^\w@%+=:,./-] with re.ASCII.
func isSafeQuoteByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("_@%+=:,./-", c) >= 0
}

// Join quotes each word (Quote) and joins them with spaces: a command that
// Split reads back as words.
func Join(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = Quote(w)
	}
	return strings.Join(quoted, " ")
}

// MaySplitTo reports whether Split(cmd) could be words: false when it
// cannot, judged without splitting. Split removes only quotes,
// backslashes and the whitespace between words, so once those are left
// out, cmd and the words must hold the same bytes in the same order. A
// lookup among thousands of commands (the guard's, in the allowlist) asks
// this first and splits only the few that pass.
func MaySplitTo(cmd string, words []string) bool {
	i := 0
	next := func() (byte, bool) {
		for ; i < len(cmd); i++ {
			if !splitRemoves(cmd[i]) {
				i++
				return cmd[i-1], true
			}
		}
		return 0, false
	}
	for _, w := range words {
		for j := 0; j < len(w); j++ {
			if splitRemoves(w[j]) {
				continue
			}
			c, ok := next()
			if !ok || c != w[j] {
				return false
			}
		}
	}
	_, more := next()
	return !more
}

// splitRemoves: the bytes Split may drop from a command.
func splitRemoves(c byte) bool {
	switch c {
	case '\'', '"', '\\', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}
