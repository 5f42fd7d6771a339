package edit

import (
	"errors"
	"strings"

	"gopkg.in/yaml.v3"
)

// splice replaces body[start:end] with text.
type splice struct {
	start, end int
	text       string
}

// Append adds a mapping built from item at the end of the list at path (a
// path of mapping keys, such as hooks, pre_tool_call), creating the keys
// and the list as needed, and returns the new file.
func (d *Doc) Append(path []string, item []Field) ([]byte, error) {
	if len(path) == 0 || len(item) == 0 {
		return nil, errors.New("edit: Append needs a path and at least one field")
	}
	return d.AppendAll(path, [][]Field{item})
}

// AppendAll is Append of several items at once, in order: one edit and one
// check of the result however many items there are, so adding n hooks
// costs time linear in n.
func (d *Doc) AppendAll(path []string, items [][]Field) ([]byte, error) {
	if len(path) == 0 || len(items) == 0 {
		return nil, errors.New("edit: Append needs a path and at least one field")
	}
	for _, it := range items {
		if len(it) == 0 {
			return nil, errors.New("edit: Append needs a path and at least one field")
		}
	}
	sp, err := d.appendSplices(path, items)
	if err != nil {
		return nil, err
	}
	return d.finish(sp, func(old any) (any, error) { return appendValue(old, path, items) })
}

func (d *Doc) appendSplices(path []string, item [][]Field) ([]splice, error) {
	root := d.root
	if root == nil {
		// Nothing but comments, or nothing at all: the new block goes at
		// the end.
		lay := d.layoutOf(nil)
		lines, err := lay.nested(path, 0, item)
		if err != nil {
			return nil, err
		}
		text := strings.Join(lines, d.nl) + d.nl
		if len(d.body) > 0 && !strings.HasSuffix(string(d.body), "\n") {
			text = d.nl + text
		}
		return []splice{{len(d.body), len(d.body), text}}, nil
	}
	if root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 {
		return nil, refused(root.Line, "the top level of the file is not a block mapping of keys to values")
	}
	lay := d.layoutOf(d.Lookup(path[:1]))
	cur := root
	for i, key := range path {
		k, v := findKey(cur, key)
		name := strings.Join(path[:i+1], ".")
		last := i == len(path)-1
		if k == nil {
			// A new key at the end of cur.
			indent := cur.Column - 1
			lines, err := lay.nested(path[i:], indent, item)
			if err != nil {
				return nil, err
			}
			at := d.lastContent(cur.Line, d.nextLine(cur), indent)
			return []splice{d.insertAfter(at, lines)}, nil
		}
		if v.Kind == yaml.AliasNode {
			return nil, refused(k.Line, "%s is an alias (*%s) of a value defined elsewhere; edit it by hand", name, v.Value)
		}
		if d.reused(v) {
			return nil, refused(k.Line, "%s is reused elsewhere in the file through an anchor (&%s); changing it would change those places too, so edit it by hand", name, anchorIn(v))
		}
		if emptyValue(v) {
			if (v.Kind == yaml.MappingNode && last) || (v.Kind == yaml.SequenceNode && !last) {
				return nil, refused(k.Line, "%s has the wrong kind of value (%s)", name, kindName(v))
			}
			indent := k.Column - 1
			var lines []string
			var err error
			if last {
				lines, err = lay.items(indent+lay.seqIndent, item, quotePlain)
			} else {
				lines, err = lay.nested(path[i+1:], indent+lay.unit, item)
			}
			if err != nil {
				return nil, err
			}
			sp := []splice{d.insertAfter(k.Line, lines)}
			if del, ok := d.valueToken(k, v); ok {
				sp = append(sp, del)
			}
			return sp, nil
		}
		if !last {
			if v.Kind != yaml.MappingNode {
				return nil, refused(k.Line, "%s must be a mapping of keys to values, it is %s", name, kindName(v))
			}
			if v.Style&yaml.FlowStyle != 0 {
				return nil, refused(k.Line, "%s is written in flow style ({...}); edit it by hand", name)
			}
			cur = v
			continue
		}
		if v.Kind != yaml.SequenceNode {
			return nil, refused(k.Line, "%s must be a list, it is %s", name, kindName(v))
		}
		q := quotingOf(firstValue(v, item[0][0].Key))
		if v.Style&yaml.FlowStyle != 0 {
			return d.flowAppend(v, item, q)
		}
		indent := v.Column - 1
		if it := v.Content[0]; it.Kind == yaml.MappingNode && it.Style&yaml.FlowStyle == 0 && it.Line == v.Line && it.Column-v.Column >= 2 {
			lay.itemOff = it.Column - v.Column
		}
		var lines []string
		if v.Content[0].Style&yaml.FlowStyle != 0 && v.Content[0].Kind == yaml.MappingNode {
			for _, it := range item {
				flow, err := flowItem(it, q)
				if err != nil {
					return nil, err
				}
				lines = append(lines, spaces(indent)+"-"+spaces(lay.itemOff-1)+flow)
			}
		} else {
			var err error
			if lines, err = lay.items(indent, item, q); err != nil {
				return nil, err
			}
		}
		at := d.lastContent(v.Line, d.nextLine(v), indent)
		return []splice{d.insertAfter(at, lines)}, nil
	}
	return nil, errors.New("edit: unreachable")
}

// insertAfter adds lines after line l, keeping l's own line end.
func (d *Doc) insertAfter(l int, lines []string) splice {
	at := d.lineEnd(l)
	return splice{at, at, d.nl + strings.Join(lines, d.nl)}
}

// valueToken is the splice deleting an explicit empty value written on the
// key's line (~, null, [], {}) with the spaces before it, so the key line
// reads `key:` (and keeps any comment).
func (d *Doc) valueToken(k, v *yaml.Node) (splice, bool) {
	if v.Line != k.Line || (v.Kind == yaml.ScalarNode && v.Value == "") {
		return splice{}, false
	}
	start := d.offset(v.Line, v.Column)
	end := start
	lineEnd := d.lineEnd(v.Line)
	if v.Kind == yaml.ScalarNode {
		for end < lineEnd && d.body[end] != ' ' && d.body[end] != '\t' && d.body[end] != '#' {
			end++
		}
	} else {
		open := strings.IndexAny(string(d.body[start:lineEnd]), "[{")
		if open < 0 {
			return splice{}, false
		}
		close, _, _, ok := scanFlow(d.body, start+open)
		if !ok || close >= lineEnd {
			return splice{}, false
		}
		end = close + 1
	}
	for start > 0 && (d.body[start-1] == ' ' || d.body[start-1] == '\t') {
		start--
	}
	return splice{start, end, ""}, true
}

func (d *Doc) flowAppend(v *yaml.Node, items [][]Field, q quoting) ([]splice, error) {
	start := d.offset(v.Line, v.Column)
	open := strings.IndexByte(string(d.body[start:]), '[')
	if open < 0 {
		return nil, &UnsafeError{"cannot find the '[' of the list"}
	}
	close, _, _, ok := scanFlow(d.body, start+open)
	if !ok {
		return nil, &UnsafeError{"cannot find the ']' of the list"}
	}
	var texts []string
	for _, it := range items {
		t, err := flowItem(it, q)
		if err != nil {
			return nil, err
		}
		texts = append(texts, t)
	}
	text := strings.Join(texts, ", ")
	j := close - 1
	for j > start+open && strings.ContainsRune(" \t\r\n", rune(d.body[j])) {
		j--
	}
	switch d.body[j] {
	case '[':
	case ',':
		text = " " + text
	default:
		text = ", " + text
	}
	return []splice{{j + 1, j + 1, text}}, nil
}

// emptyValue: null, or an empty flow list or mapping.
func emptyValue(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.ShortTag() == "!!null"
	case yaml.SequenceNode, yaml.MappingNode:
		return len(v.Content) == 0
	}
	return false
}

func kindName(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	if v.ShortTag() == "!!null" {
		return "empty"
	}
	return "a scalar (" + strings.TrimPrefix(v.ShortTag(), "!!") + ")"
}

// firstValue is the value of key in the first mapping item of seq that
// has it: the example new values are quoted after.
func firstValue(seq *yaml.Node, key string) *yaml.Node {
	for _, it := range seq.Content {
		if it = unstubbed(it); it.Kind == yaml.MappingNode {
			if _, v := findKey(it, key); v != nil && v.Kind == yaml.ScalarNode {
				return v
			}
		}
	}
	return nil
}

// nested renders keys as nested block mappings starting at indent, the last
// one holding a list with item.
func (l layout) nested(keys []string, indent int, item [][]Field) ([]string, error) {
	var lines []string
	for j, k := range keys {
		lines = append(lines, spaces(indent+j*l.unit)+renderKey(k)+":")
	}
	items, err := l.items(indent+(len(keys)-1)*l.unit+l.seqIndent, item, quotePlain)
	return append(lines, items...), err
}

func (l layout) items(indent int, items [][]Field, q quoting) ([]string, error) {
	var lines []string
	for _, it := range items {
		l, err := blockItem(it, indent, l.itemOff, q)
		if err != nil {
			return nil, err
		}
		lines = append(lines, l...)
	}
	return lines, nil
}

// appendValue is what the document must mean after Append: old with item
// added to the list at path.
func appendValue(old any, path []string, items [][]Field) (any, error) {
	var ms []any
	for _, it := range items {
		m := map[string]any{}
		for _, f := range it {
			m[f.Key] = f.Value
		}
		ms = append(ms, m)
	}
	return setIn(old, path, func(cur any) (any, error) {
		list, ok := cur.([]any)
		if cur != nil && !ok {
			return nil, errors.New("not a list")
		}
		return append(append([]any(nil), list...), ms...), nil
	})
}

// setIn returns a copy of v with the value at path replaced by fn(value);
// missing mappings on the way are created.
func setIn(v any, path []string, fn func(any) (any, error)) (any, error) {
	if len(path) == 0 {
		return fn(v)
	}
	var m map[string]any
	switch t := v.(type) {
	case nil:
		m = map[string]any{}
	case map[string]any:
		m = make(map[string]any, len(t)+1)
		for k, x := range t {
			m[k] = x
		}
	default:
		return nil, errors.New("not a mapping with string keys")
	}
	nv, err := setIn(m[path[0]], path[1:], fn)
	if err != nil {
		return nil, err
	}
	m[path[0]] = nv
	return m, nil
}

// anchorIn names the first anchor in n's subtree.
func anchorIn(n *yaml.Node) string {
	if n.Anchor != "" {
		return n.Anchor
	}
	for _, c := range n.Content {
		if a := anchorIn(c); a != "" {
			return a
		}
	}
	return "?"
}
