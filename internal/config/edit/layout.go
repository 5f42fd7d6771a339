package edit

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// layout is how the file indents, so new text looks like the old.
type layout struct {
	unit      int // indentation of a nested mapping under its key
	seqIndent int // indentation of a block sequence's dash under its key (0: not indented)
	itemOff   int // from a dash to its item's first key ("- " is 2)
}

// layoutOf learns the indentation from the file, looking first under
// prefer (the part being edited), then anywhere.
func (d *Doc) layoutOf(prefer *yaml.Node) layout {
	l := layout{unit: -1, seqIndent: -1, itemOff: -1}
	for _, top := range []*yaml.Node{prefer, d.root} {
		walkPairs(top, func(k, v *yaml.Node) bool {
			if l.unit >= 0 && l.seqIndent >= 0 && l.itemOff >= 0 {
				return false
			}
			if v.Style&yaml.FlowStyle != 0 || v.Line == k.Line {
				return true
			}
			switch v.Kind {
			case yaml.MappingNode:
				if l.unit < 0 && v.Column > k.Column {
					l.unit = v.Column - k.Column
				}
			case yaml.SequenceNode:
				if l.seqIndent < 0 && v.Column >= k.Column {
					l.seqIndent = v.Column - k.Column
				}
				if l.itemOff < 0 && len(v.Content) > 0 {
					if it := v.Content[0]; it.Kind == yaml.MappingNode && it.Style&yaml.FlowStyle == 0 && it.Line == v.Line && it.Column-v.Column >= 2 {
						l.itemOff = it.Column - v.Column
					}
				}
			}
			return true
		})
	}
	if l.unit <= 0 {
		l.unit = 2
	}
	if l.seqIndent < 0 {
		l.seqIndent = l.unit
	}
	if l.itemOff < 0 {
		l.itemOff = 2
	}
	return l
}

// walkPairs calls fn for every key/value pair of every mapping under n,
// in document order, without following aliases, stubs' items read
// (config.IsStub), until fn returns false; it reports whether it went
// through them all.
func walkPairs(n *yaml.Node, fn func(k, v *yaml.Node) bool) bool {
	if n == nil {
		return true
	}
	if config.IsStub(n) && !mayNest(n.Value) {
		return true // none of its pairs has a block value fn might use
	}
	n = unstubbed(n)
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !fn(n.Content[i], n.Content[i+1]) {
				return false
			}
		}
	}
	for _, c := range n.Content {
		if !walkPairs(c, fn) {
			return false
		}
	}
	return true
}

// mayNest reports whether the item written as text may hold a key whose
// value is a mapping or a list in block style: a line ends with ':', a
// comment aside (any " #" may start one). Reading every hook of a 55 MB
// config to learn that none does cost seconds (SPEC §29 item 2).
func mayNest(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, " \r\n")
		for {
			if strings.HasSuffix(line, ":") {
				return true
			}
			i := strings.LastIndex(line, " #")
			if i < 0 {
				break
			}
			line = strings.TrimRight(line[:i], " ")
		}
	}
	return false
}

// nextLine is the line of the first node after n's subtree in document
// order (the next key or item, at any level up), or one past the last
// line: the text of n's subtree ends before it.
func (d *Doc) nextLine(n *yaml.Node) int {
	if line, ok := nextIn(d.root, n); ok {
		return line
	}
	return d.numLines() + 1
}

// nextLineIn is nextLine of n, a node of item, which was read from node,
// the list item in the document (a stub, config.IsStub): the nodes of a
// stub's item are not in the document's tree.
func (d *Doc) nextLineIn(node, item, n *yaml.Node) int {
	if line, ok := nextIn(item, n); ok {
		return line
	}
	return d.nextLine(node)
}

// nextIn is the line of the first node after n's subtree in document
// order within root's subtree; ok is false when there is none.
func nextIn(root, n *yaml.Node) (line int, ok bool) {
	// One walk in document order that stops at the answer, without
	// listing the nodes: it runs once per edited item, and a list of a
	// 55 MB document's nodes was 34 MB (SPEC §29 item 2).
	passed := false
	var walk func(*yaml.Node) bool
	walk = func(x *yaml.Node) bool {
		if passed {
			line = x.Line
			return true
		}
		for _, c := range x.Content {
			if walk(c) {
				return true
			}
		}
		passed = passed || x == n
		return false
	}
	return line, root != nil && walk(root)
}

// lastContent is the last line in [from, limit) that is not blank and not
// a comment indented less than keep: where a block that starts on line
// from ends. Comments indented at least keep belong to the block.
func (d *Doc) lastContent(from, limit, keep int) int {
	for l := min(limit-1, d.numLines()); l > from; l-- {
		s := d.line(l)
		if isBlank(s) || (isComment(s) && indentOf(s) < keep) {
			continue
		}
		return l
	}
	return from
}

// lineOf is the 1-based line holding byte offset off of the body.
func (d *Doc) lineOf(off int) int {
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1
}

func spaces(n int) string { return strings.Repeat(" ", n) }
