package pyre

// simple reports whether pattern is in a small subset of Python's syntax
// that re.compile always accepts: ASCII letters, digits, '_', ':' and '-';
// '.'; the escapes \w \W \d \D \s \S; sets of those (a '-' only first or
// last, so no ranges); '|'; plain groups '(' ... ')' nested at most 100
// deep; and one '*', '+' or '?' right after an item. Matchers are nearly
// always written so (`terminal|patch`, `mcp__[\w-]+__create_\w+`,
// `web_(search|fetch)`), and checking this costs a pass over the bytes
// instead of a parse, so Compile leaves the parse itself to the first
// match. false means only "not known at a glance": parse decides.
// FuzzSimple checks that parse accepts whatever simple accepts.
func simple(pattern string) bool {
	depth := 0
	item := false // the last thing read can take a quantifier
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case isSimpleLiteral(c) || c == '.':
			item = true
		case c == '\\':
			if i+1 >= len(pattern) || !isSimpleClass(pattern[i+1]) {
				return false
			}
			i++
			item = true
		case c == '[':
			end := simpleSet(pattern, i)
			if end < 0 {
				return false
			}
			i = end
			item = true
		case c == '(':
			if depth++; depth > 100 || i+1 < len(pattern) && pattern[i+1] == '?' {
				return false
			}
			item = false
		case c == ')':
			if depth--; depth < 0 {
				return false
			}
			item = true
		case c == '|':
			item = false
		case c == '*' || c == '+' || c == '?':
			if !item {
				return false
			}
			item = false
		default:
			return false
		}
	}
	return depth == 0
}

// simpleSet returns the index of the ']' closing the set opened at i, or
// -1 when the set is not simple: one or more letters, digits, '_', ':' and
// class escapes, with '-' allowed only as the first or last member.
func simpleSet(pattern string, i int) int {
	n := 0
	for j := i + 1; j < len(pattern); j++ {
		c := pattern[j]
		switch {
		case c == ']':
			if n == 0 {
				return -1 // "[]...]" means a set holding ']'
			}
			return j
		case isSimpleLiteral(c) && c != '-':
		case c == '-':
			if n != 0 && (j+1 >= len(pattern) || pattern[j+1] != ']') {
				return -1
			}
		case c == '\\':
			if j+1 >= len(pattern) || !isSimpleClass(pattern[j+1]) {
				return -1
			}
			j++
		default:
			return -1
		}
		n++
	}
	return -1
}

func isSimpleLiteral(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':' || c == '-'
}

func isSimpleClass(c byte) bool {
	switch c {
	case 'w', 'W', 'd', 'D', 's', 'S':
		return true
	}
	return false
}
