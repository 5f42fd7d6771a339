package edit

import (
	"gopkg.in/yaml.v3"
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
	var sp []splice
	changed := map[string]map[int]any{}
	err := d.eachItem(path, func(it listItem) error {
		ck, cv := findKey(it.item, "command")
		if cv == nil || cv.Kind != yaml.ScalarNode || !pick(it.key.Value, it.index, cv.Value) {
			return nil
		}
		if it.viaAlias() || it.anchored() {
			return refused(cv.Line, "%s is (inside) an alias or an anchor; add %s: true by hand", it.name, field)
		}
		if it.flow() {
			return refused(cv.Line, "%s is written in flow style ({…}); add %s: true by hand", it.name, field)
		}
		_, fv := findKey(it.item, field)
		switch {
		case fv != nil && fv.Kind == yaml.ScalarNode && fv.ShortTag() == "!!bool" && fv.Value == "true":
			return nil
		case fv != nil && fv.Kind == yaml.ScalarNode:
			s, err := d.scalarSplice(fv, "true", false)
			if err != nil {
				return err
			}
			// Written plain: the string "true" would be quoted.
			s.text = "true"
			sp = append(sp, s)
		case fv != nil:
			return refused(fv.Line, "%s: %s is not a scalar; set it to true by hand", it.name, field)
		default:
			next := d.nextLineIn(it.node, it.item, cv)
			if cv.Line != ck.Line || cv.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || next > cv.Line+1 && !d.blankOrCommentUntil(cv.Line+1, next) {
				return refused(cv.Line, "%s: the command spans several lines; add %s: true by hand", it.name, field)
			}
			sp = append(sp, d.insertAfter(ck.Line, []string{spaces(ck.Column-1) + field + ": true"}))
		}
		markChanged(changed, it.key.Value, it.index, true)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return d.finishFields(sp, path, field, changed)
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
