package edit

import (
	"errors"
	"maps"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// Rewrite decides the new value of field in an item of a list: ok false
// leaves the item alone. key is the key of the list in the mapping, index
// the item's position in it, old the field's string value.
type Rewrite func(key string, index int, old string) (value string, ok bool)

// Replace sets the string field of the items of every list that is a
// value of the mapping at path, as rewrite says, and returns the new file
// and how many items changed. Only the value's own bytes change; it is
// written in the quoting style it had when that reads back the same. A
// value spread over several lines is refused (edit it by hand).
func (d *Doc) Replace(path []string, field string, rewrite Rewrite) ([]byte, int, error) {
	m := d.Lookup(path)
	if m == nil || m.Kind != yaml.MappingNode {
		return d.src, 0, nil
	}
	aliased := d.aliasedOnPath(path)
	var sp []splice
	changed := map[string]map[int]string{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		seq := config.Deref(v)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		for j, it := range seq.Content {
			item := config.Deref(it)
			if item == nil || item.Kind != yaml.MappingNode {
				continue
			}
			_, val := findKey(item, field)
			if val == nil || val.Kind != yaml.ScalarNode || val.ShortTag() != "!!str" {
				continue
			}
			nv, ok := rewrite(k.Value, j, val.Value)
			if !ok || nv == val.Value {
				continue
			}
			name := strings.Join(append(append([]string(nil), path...), k.Value), ".")
			if aliased || v.Kind == yaml.AliasNode || it.Kind == yaml.AliasNode {
				return nil, 0, refused(val.Line, "%s is (inside) an alias of a value defined elsewhere; edit it by hand", name)
			}
			if d.aliasTo(seq) || d.aliasToPath(path) || d.reused(it) {
				return nil, 0, refused(val.Line, "%s is reused elsewhere in the file through an anchor (&%s); changing it would change those places too, so edit it by hand", name, anchorIn(seq))
			}
			s, err := d.scalarSplice(val, nv, item.Style&yaml.FlowStyle != 0 || seq.Style&yaml.FlowStyle != 0)
			if err != nil {
				return nil, 0, err
			}
			sp = append(sp, s)
			if changed[k.Value] == nil {
				changed[k.Value] = map[int]string{}
			}
			changed[k.Value][j] = nv
		}
	}
	if len(sp) == 0 {
		return d.src, 0, nil
	}
	out, err := d.finish(sp, func(old any) (any, error) { return replaceValue(old, path, field, changed) })
	if err != nil {
		return nil, 0, err
	}
	return out, len(sp), nil
}

// scalarSplice replaces the bytes of a one-line scalar with value.
func (d *Doc) scalarSplice(n *yaml.Node, value string, flow bool) (splice, error) {
	start := d.offset(n.Line, n.Column)
	line := string(d.body[start:d.lineEnd(n.Line)])
	var end int
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		end = closingDouble(line)
	case n.Style&yaml.SingleQuotedStyle != 0:
		end = closingSingle(line)
	case n.Style == 0 && strings.HasPrefix(line, n.Value):
		end = len(n.Value)
	default:
		end = -1
	}
	if end < 0 {
		return splice{}, refused(n.Line, "the value %q is written over several lines or in a block style; edit it by hand", n.Value)
	}
	text := renderString(value, quotingOf(n), flow)
	return splice{start, start + end, text}, nil
}

// closingDouble is the length of the double-quoted scalar at the start of
// s, -1 when it does not close on this line.
func closingDouble(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// closingSingle is the length of the single-quoted scalar at the start of
// s (” is a quote inside it), -1 when it does not close on this line.
func closingSingle(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// replaceValue is what the document must mean after Replace.
func replaceValue(old any, path []string, field string, changed map[string]map[int]string) (any, error) {
	return setIn(old, path, func(cur any) (any, error) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, errors.New("not a mapping with string keys")
		}
		out := maps.Clone(m)
		for k, idx := range changed {
			list, ok := m[k].([]any)
			if !ok {
				return nil, errors.New("not a list")
			}
			nl := append([]any(nil), list...)
			for j, v := range idx {
				item, ok := nl[j].(map[string]any)
				if !ok {
					return nil, errors.New("not a mapping")
				}
				ni := maps.Clone(item)
				ni[field] = v
				nl[j] = ni
			}
			out[k] = nl
		}
		return out, nil
	})
}
