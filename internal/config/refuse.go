package config

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"gopkg.in/yaml.v3"
)

// RefusedError is a config file that is valid YAML but that the agent's
// reader refuses: a key given twice in one mapping, more than one document,
// or a tag it has no constructor for. The agent then ignores the whole file
// and runs with no hooks at all (SPEC §14), so this tool treats it as a
// config error (exit 2) instead of guessing which part the user meant.
type RefusedError struct {
	Path   string
	Line   int
	Reason string
}

func (e *RefusedError) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	return fmt.Sprintf("%s: %s: the Hermes agent refuses such a file and ignores all of it (it runs with no hooks); fix it", loc, e.Reason)
}

// knownTags are the tags the agent's safe loader can construct; any other
// explicit tag (!foo, !!python/object, !Ref) makes it fail.
var knownTags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"!!null": true, "!!bool": true, "!!int": true, "!!float": true, "!!binary": true, "!!timestamp": true,
		"!!omap": true, "!!pairs": true, "!!set": true, "!!str": true, "!!seq": true, "!!map": true, "!!merge": true,
	}
})

// Refusal returns why the agent would refuse doc (a duplicate key or an
// unknown tag; a second document is the caller's to find), or nil. Nodes
// are visited in document order, so the first problem in the file is named.
// Path is left for the caller to set.
func Refusal(doc *yaml.Node) *RefusedError {
	var walk func(n *yaml.Node) *RefusedError
	walk = func(n *yaml.Node) *RefusedError {
		if n == nil || n.Kind == yaml.AliasNode {
			return nil // an alias repeats a node already visited
		}
		if n.Style&yaml.TaggedStyle != 0 && !knownTags()[n.Tag] {
			return &RefusedError{Line: n.Line, Reason: fmt.Sprintf("unknown tag %s", n.Tag)}
		}
		if n.Kind == yaml.MappingNode {
			var seen keyLines
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if err := walk(k); err != nil {
					return err
				}
				id, ok := keyID(k)
				if !ok {
					return &RefusedError{Line: k.Line, Reason: "a list or mapping used as a key (the agent cannot use it as a key)"}
				}
				if line, dup := seen.get(id); dup {
					return &RefusedError{Line: k.Line, Reason: fmt.Sprintf("duplicate key %s (first at line %d)", strconv.Quote(keyString(k)), line)}
				}
				if id.kind != 0 {
					seen.put(id, k.Line)
				}
				if isMergeKey(k) {
					if why := badMerge(n.Content[i+1]); why != "" {
						return &RefusedError{Line: k.Line, Reason: why}
					}
				}
				if err := walk(n.Content[i+1]); err != nil {
					return err
				}
			}
			return nil
		}
		for _, c := range n.Content {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(doc)
}

// keyLines is the line of each key of a mapping, by keyID: a few in an
// array, a map only past them (a config of 755,000 hooks is as many small
// mappings; a map for each was a third of Refusal's time), keyed by the
// id as one string (a string key hashes faster than a struct's).
type keyLines struct {
	few  [8]keyLine
	n    int
	many map[string]int
}

type keyLine struct {
	id   dictKey
	line int
}

func (s *keyLines) get(id dictKey) (int, bool) {
	if s.many != nil {
		line, ok := s.many[id.joined()]
		return line, ok
	}
	for _, k := range s.few[:s.n] {
		if k.id == id {
			return k.line, true
		}
	}
	return 0, false
}

func (s *keyLines) put(id dictKey, line int) {
	switch {
	case s.many != nil:
		s.many[id.joined()] = line
	case s.n < len(s.few):
		s.few[s.n] = keyLine{id, line}
		s.n++
	default:
		s.many = make(map[string]int, 2*len(s.few))
		for _, k := range s.few {
			s.many[k.id.joined()] = k.line
		}
		s.many[id.joined()] = line
	}
}

// keyID is what a key is as a Python dict key: keys that compare equal in
// Python (true, 1 and 1.0; yes and True) get the same id. The zero id
// means a key equal to no other (NaN). ok is false for a list or mapping.
func keyID(k *yaml.Node) (id dictKey, ok bool) {
	v := Resolve(k)
	switch v.Kind {
	case KindNull:
		return dictKey{'z', ""}, true
	case KindBool:
		if v.Bool {
			return dictKey{'n', "1"}, true
		}
		return dictKey{'n', "0"}, true
	case KindInt:
		return dictKey{'n', strconv.FormatInt(v.Int, 10)}, true
	case KindFloat:
		switch {
		case math.IsNaN(v.Float):
			return dictKey{}, true
		case v.Float == math.Trunc(v.Float) && math.Abs(v.Float) < 1<<62:
			return dictKey{'n', strconv.FormatInt(int64(v.Float), 10)}, true
		}
		return dictKey{'f', strconv.FormatFloat(v.Float, 'g', -1, 64)}, true
	case KindString:
		return dictKey{'s', v.Str}, true
	case KindBinary:
		return dictKey{'b', v.Node.Value}, true
	}
	return dictKey{}, false
}

// dictKey is a keyID: a kind (null, number, float, string, binary; 0 for
// a key equal to no other) and its text, not joined into one string (a
// 55 MB config's 1.7 million keys made as many strings).
type dictKey struct {
	kind byte
	text string
}

// joined is the id as one string, kind first.
func (k dictKey) joined() string { return string(k.kind) + k.text }

// badMerge says why the agent's loader cannot merge v (PyYAML's
// flatten_mapping: a mapping, or a list of mappings, aliases followed);
// "" when it can.
func badMerge(v *yaml.Node) string {
	kind := func(n *yaml.Node) string {
		switch n = Deref(n); {
		case n == nil:
			return "nothing"
		case n.Kind == yaml.SequenceNode:
			return "a list"
		case n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "" && n.Style == 0):
			return "null"
		case n.Kind == yaml.ScalarNode:
			return "a scalar"
		}
		return ""
	}
	m := Deref(v)
	if m != nil && m.Kind == yaml.SequenceNode {
		for _, c := range m.Content {
			if k := kind(c); k != "" {
				return fmt.Sprintf("the merge key << merges a list holding %s, not only mappings", k)
			}
		}
		return ""
	}
	if k := kind(m); k != "" {
		return fmt.Sprintf("the merge key << merges %s, not a mapping or a list of mappings", k)
	}
	return ""
}
