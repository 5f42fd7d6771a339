package edit

import (
	"errors"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// Match decides whether an item of a list is removed. key is the key of
// the list in the mapping, index the item's position in it; item is as
// written (an alias is not followed), a stub's item read into memory used
// again for the next (config.ItemReader): void once Match returns.
type Match func(key string, index int, item *yaml.Node) bool

// Remove deletes, from every list that is a value of the mapping at path,
// the items match selects, and returns the new file and how many items
// went. A list left empty keeps its key (with no value, which reads as
// empty). Comments around a removed item are kept; a comment on the item's
// own lines goes with it.
func (d *Doc) Remove(path []string, match Match) ([]byte, int, error) {
	var sp []splice
	removed := map[string][]int{}
	count := 0
	r := readers.Get().(*config.ItemReader)
	defer readers.Put(r)
	err := d.eachList(path, func(l list) error {
		var idx []int
		for j, it := range l.seq.Content {
			if match(l.key.Value, j, r.Read(it)) {
				idx = append(idx, j)
			}
		}
		if len(idx) == 0 {
			return nil
		}
		if l.viaAlias() {
			return refused(l.key.Line, "%s is (inside) an alias of a value defined elsewhere; edit it by hand", l.name)
		}
		reused := l.anchored()
		for _, j := range idx {
			reused = reused || d.reused(l.seq.Content[j])
		}
		if reused {
			return refused(l.key.Line, "%s is reused elsewhere in the file through an anchor (&%s); changing it would change those places too, so edit it by hand", l.name, anchorIn(l.seq))
		}
		var s []splice
		var err error
		if l.seq.Style&yaml.FlowStyle != 0 {
			s, err = d.flowRemove(l.seq, idx)
		} else {
			s, err = d.blockRemove(l.seq, idx)
		}
		if err != nil {
			return err
		}
		sp = append(sp, s...)
		removed[l.key.Value] = idx
		count += len(idx)
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if count == 0 {
		return d.src, 0, nil
	}
	out, err := d.finish(sp, func(old any) (any, error) { return removeValue(old, path, removed) })
	if err != nil {
		return nil, 0, err
	}
	return out, count, nil
}

// aliasedOnPath reports whether the mapping at path is, or is inside, an
// alias.
func (d *Doc) aliasedOnPath(path []string) bool {
	n := d.root
	for _, k := range path {
		if n == nil || n.Kind == yaml.AliasNode {
			return true
		}
		if n.Kind != yaml.MappingNode {
			return false
		}
		_, n = findKey(n, k)
	}
	return n != nil && n.Kind == yaml.AliasNode
}

func (d *Doc) blockRemove(seq *yaml.Node, idx []int) ([]splice, error) {
	var sp []splice
	for _, j := range idx {
		it := seq.Content[j]
		first := d.dashLine(seq, it)
		if first == 0 {
			return nil, &UnsafeError{"cannot find the '-' of a list item"}
		}
		last := d.lastContent(it.Line, d.nextLine(it), 1<<30)
		start, end := d.lineStart(first), d.lineStart(last+1)
		if last >= d.numLines() {
			// The last line of a file without a final line break: take the
			// break before it instead, so the file still ends without one.
			end = len(d.body)
			if start > 0 {
				start--
				if start > 0 && d.body[start-1] == '\r' {
					start--
				}
			}
		}
		sp = append(sp, splice{start, end, ""})
	}
	return sp, nil
}

// dashLine finds the line of the '-' that introduces item it.
func (d *Doc) dashLine(seq, it *yaml.Node) int {
	before := strings.TrimRight(string(d.body[d.lineStart(it.Line):d.offset(it.Line, it.Column)]), " \t")
	if strings.HasSuffix(before, "-") {
		return it.Line
	}
	for l := it.Line - 1; l >= seq.Line; l-- {
		s := d.line(l)
		if isBlank(s) || isComment(s) {
			continue
		}
		if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "-") && indentOf(s) == seq.Column-1 {
			return l
		}
		return 0
	}
	return 0
}

func (d *Doc) flowRemove(seq *yaml.Node, idx []int) ([]splice, error) {
	start := d.offset(seq.Line, seq.Column)
	o := strings.IndexByte(string(d.body[start:]), '[')
	if o < 0 {
		return nil, &UnsafeError{"cannot find the '[' of the list"}
	}
	open := start + o
	close, commas, comment, ok := scanFlow(d.body, open)
	if !ok {
		return nil, &UnsafeError{"cannot find the ']' of the list"}
	}
	if comment {
		return nil, refused(seq.Line, "the list is written in flow style ([...]) with comments inside; edit it by hand")
	}
	drop := map[int]bool{}
	for _, j := range idx {
		drop[j] = true
	}
	var kept []string
	for j, it := range seq.Content {
		if drop[j] {
			continue
		}
		s := d.offset(it.Line, it.Column)
		e := close
		if j < len(commas) {
			e = commas[j]
		}
		if s > e {
			return nil, &UnsafeError{"cannot delimit the items of the list"}
		}
		kept = append(kept, strings.TrimRight(string(d.body[s:e]), " \t\r\n"))
	}
	return []splice{{open, close + 1, "[" + strings.Join(kept, ", ") + "]"}}, nil
}

// scanFlow finds the bracket closing the flow collection opened at
// body[open], the commas separating its top-level items, and whether it
// holds a comment.
func scanFlow(b []byte, open int) (close int, commas []int, comment, ok bool) {
	depth := 0
	prev := byte('[') // last significant character: a quote opens a string only after one of [{,:
	for i := open; i < len(b); i++ {
		c := b[i]
		switch {
		case (c == '"' || c == '\'') && strings.IndexByte("[{,:", prev) >= 0:
			j := i + 1
			for ; j < len(b); j++ {
				if c == '"' && b[j] == '\\' {
					j++
					continue
				}
				if b[j] == c {
					if c == '\'' && j+1 < len(b) && b[j+1] == '\'' {
						j++
						continue
					}
					break
				}
			}
			if j >= len(b) {
				return 0, nil, false, false
			}
			i = j
		case c == '#' && i > 0 && strings.IndexByte(" \t\r\n", b[i-1]) >= 0:
			comment = true
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
			continue
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i, commas, comment, true
			}
		case c == ',' && depth == 1:
			commas = append(commas, i)
		}
		if strings.IndexByte(" \t\r\n", c) < 0 {
			prev = b[i]
			if c == '"' || c == '\'' {
				prev = 'x'
			}
		}
	}
	return 0, nil, false, false
}

// removeValue is what the document must mean after Remove.
func removeValue(old any, path []string, removed map[string][]int) (any, error) {
	return setIn(old, path, func(cur any) (any, error) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, errors.New("not a mapping with string keys")
		}
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		for k, idx := range removed {
			list, ok := m[k].([]any)
			if !ok {
				return nil, errors.New("not a list")
			}
			sort.Ints(idx)
			var kept []any
			drop := map[int]bool{}
			for _, j := range idx {
				drop[j] = true
			}
			for j, x := range list {
				if !drop[j] {
					kept = append(kept, x)
				}
			}
			if len(kept) == 0 {
				// A block list left with nothing reads as null; an emptied
				// flow list stays [].
				out[k] = emptyMarker{}
				continue
			}
			out[k] = kept
		}
		return out, nil
	})
}

// emptyMarker stands for "null or empty list" in the expected value.
type emptyMarker struct{}
