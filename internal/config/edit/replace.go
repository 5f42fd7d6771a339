package edit

import (
	"strings"

	"gopkg.in/yaml.v3"
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
	var sp []splice
	changed := map[string]map[int]any{}
	err := d.eachItem(path, func(it listItem) error {
		_, val := findKey(it.item, field)
		if val == nil || val.Kind != yaml.ScalarNode || val.ShortTag() != "!!str" {
			return nil
		}
		nv, ok := rewrite(it.key.Value, it.index, val.Value)
		if !ok || nv == val.Value {
			return nil
		}
		if it.viaAlias() {
			return refused(val.Line, "%s is (inside) an alias of a value defined elsewhere; edit it by hand", it.name)
		}
		if it.anchored() {
			return refused(val.Line, "%s is reused elsewhere in the file through an anchor (&%s); changing it would change those places too, so edit it by hand", it.name, anchorIn(it.seq))
		}
		s, err := d.scalarSplice(val, nv, it.flow())
		if err != nil {
			return err
		}
		sp = append(sp, s)
		markChanged(changed, it.key.Value, it.index, nv)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return d.finishFields(sp, path, field, changed)
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
