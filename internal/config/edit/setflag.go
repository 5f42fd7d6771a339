package edit

import (
	"errors"
	"maps"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// Pick chooses the items of a list to change: key is the list's key in
// the mapping, index the item's position, command its "command" value.
type Pick func(key string, index int, command string) bool

// SetTrue sets the boolean field to true in the items of every list that
// is a value of the mapping at path that pick chooses (protect
// --fail-closed: fail_closed: true), and returns the new file and how
// many items changed. A field already there is rewritten in place; a
// missing one gets its own line after the item's command line, at the
// indent of its keys. Items written in flow style, or whose command spans
// several lines, are refused (edit them by hand).
func (d *Doc) SetTrue(path []string, field string, pick Pick) ([]byte, int, error) {
	m := d.Lookup(path)
	if m == nil || m.Kind != yaml.MappingNode {
		return d.src, 0, nil
	}
	aliased := d.aliasedOnPath(path)
	var sp []splice
	changed := map[string]map[int]bool{}
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
			ck, cv := findKey(item, "command")
			if cv == nil || cv.Kind != yaml.ScalarNode || !pick(k.Value, j, cv.Value) {
				continue
			}
			name := strings.Join(append(append([]string(nil), path...), k.Value), ".")
			if aliased || v.Kind == yaml.AliasNode || it.Kind == yaml.AliasNode || d.aliasTo(seq) || d.aliasToPath(path) || d.reused(it) {
				return nil, 0, refused(cv.Line, "%s is (inside) an alias or an anchor; add %s: true by hand", name, field)
			}
			if item.Style&yaml.FlowStyle != 0 || seq.Style&yaml.FlowStyle != 0 {
				return nil, 0, refused(cv.Line, "%s is written in flow style ({…}); add %s: true by hand", name, field)
			}
			_, fv := findKey(item, field)
			switch {
			case fv != nil && fv.Kind == yaml.ScalarNode && fv.ShortTag() == "!!bool" && fv.Value == "true":
				continue
			case fv != nil && fv.Kind == yaml.ScalarNode:
				s, err := d.scalarSplice(fv, "true", false)
				if err != nil {
					return nil, 0, err
				}
				// Written plain: the string "true" would be quoted.
				s.text = "true"
				sp = append(sp, s)
			case fv != nil:
				return nil, 0, refused(fv.Line, "%s: %s is not a scalar; set it to true by hand", name, field)
			default:
				if cv.Line != ck.Line || cv.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || d.nextLine(cv) > cv.Line+1 && !d.blankOrCommentUntil(cv.Line+1, d.nextLine(cv)) {
					return nil, 0, refused(cv.Line, "%s: the command spans several lines; add %s: true by hand", name, field)
				}
				sp = append(sp, d.insertAfter(ck.Line, []string{spaces(ck.Column-1) + field + ": true"}))
			}
			if changed[k.Value] == nil {
				changed[k.Value] = map[int]bool{}
			}
			changed[k.Value][j] = true
		}
	}
	if len(sp) == 0 {
		return d.src, 0, nil
	}
	out, err := d.finish(sp, func(old any) (any, error) { return setTrueValue(old, path, field, changed) })
	if err != nil {
		return nil, 0, err
	}
	return out, len(sp), nil
}

// blankOrCommentUntil reports whether lines [from, to) are blank or
// comments.
func (d *Doc) blankOrCommentUntil(from, to int) bool {
	for l := from; l < to && l <= d.numLines(); l++ {
		if s := d.line(l); !isBlank(s) && !isComment(s) {
			return false
		}
	}
	return true
}

func setTrueValue(old any, path []string, field string, changed map[string]map[int]bool) (any, error) {
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
			for j := range idx {
				item, ok := nl[j].(map[string]any)
				if !ok {
					return nil, errors.New("not a mapping")
				}
				ni := maps.Clone(item)
				ni[field] = true
				nl[j] = ni
			}
			out[k] = nl
		}
		return out, nil
	})
}
