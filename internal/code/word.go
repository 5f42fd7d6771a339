package code

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// knownVar is the value of a variable known at the time of the decision
// (SPEC §23 point 3): HOME, CLAUDE_PROJECT_DIR and HERMES_HOME, when set.
func (f *finder) knownVar(name string) (string, bool) {
	var v string
	switch name {
	case "HOME":
		v = f.env.Home
	case "CLAUDE_PROJECT_DIR":
		v = f.env.ProjectDir
	case "HERMES_HOME":
		v = f.env.HermesHome
	}
	return v, v != ""
}

// wordOf evaluates w as the shell would, when its value is known now: quotes
// removed, backslashes applied, a leading "~" and the known variables
// expanded. Anything else (another variable, a substitution, a glob, brace
// expansion) leaves the word unknown (ok false). The source text is kept
// for messages.
func (f *finder) wordOf(w *syntax.Word, src string) word {
	raw := src
	if w != nil && int(w.End().Offset()) <= len(src) {
		raw = src[w.Pos().Offset():w.End().Offset()]
	}
	var b strings.Builder
	ok := w != nil
	for i, part := range partsOf(w) {
		if !f.part(&b, part, i == 0) {
			ok = false
			break
		}
	}
	return word{s: b.String(), ok: ok, raw: raw}
}

func partsOf(w *syntax.Word) []syntax.WordPart {
	if w == nil {
		return nil
	}
	return w.Parts
}

// part appends the value of one part of a word; false when it is not known.
func (f *finder) part(b *strings.Builder, p syntax.WordPart, first bool) bool {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if globby(v) {
			return false // a glob or brace expansion: known only when it runs
		}
		if first && strings.HasPrefix(v, "~") {
			rest := v[1:]
			if rest != "" && !strings.HasPrefix(rest, "/") {
				return false // ~user
			}
			home, ok := f.knownVar("HOME")
			if !ok {
				return false
			}
			v = home + rest
		}
		b.WriteString(unescape(v, false))
		return true
	case *syntax.SglQuoted:
		if p.Dollar {
			return false // $'…' escapes: not worth guessing
		}
		b.WriteString(p.Value)
		return true
	case *syntax.DblQuoted:
		if p.Dollar {
			return false
		}
		for _, q := range p.Parts {
			switch q := q.(type) {
			case *syntax.Lit:
				b.WriteString(unescape(q.Value, true))
			case *syntax.ParamExp:
				if !f.param(b, q) {
					return false
				}
			default:
				return false
			}
		}
		return true
	case *syntax.ParamExp:
		return f.param(b, p)
	}
	return false
}

// param expands $NAME or ${NAME} of a known variable, nothing fancier.
func (f *finder) param(b *strings.Builder, p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 || p.NestedParam != nil ||
		p.Flags != nil || len(p.Modifiers) > 0 {
		return false
	}
	v, ok := f.knownVar(p.Param.Value)
	if ok {
		b.WriteString(v)
	}
	return ok
}

// unescape applies the shell's backslashes: outside quotes a backslash
// keeps the next character (a backslash-newline is removed); inside double
// quotes only $ ` " \ and newline are escaped.
func unescape(s string, dquoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		if dquoted && !strings.ContainsRune("$`\"\\\n", rune(n)) {
			b.WriteByte(c)
			continue
		}
		i++
		if n != '\n' {
			b.WriteByte(n)
		}
	}
	return b.String()
}

// globby reports a glob or brace expansion in an unquoted literal: the
// word then names files known only when it runs. A lone "[" (test) or "{"
// is not one.
func globby(v string) bool {
	if strings.ContainsAny(v, "*?") {
		return true
	}
	if i := strings.IndexByte(v, '['); i >= 0 && strings.IndexByte(v[i+1:], ']') >= 0 {
		return true
	}
	if i := strings.IndexByte(v, '{'); i >= 0 {
		inner := v[i+1:]
		if j := strings.IndexByte(inner, '}'); j >= 0 {
			inner = inner[:j]
			return strings.Contains(inner, ",") || strings.Contains(inner, "..")
		}
	}
	return false
}
