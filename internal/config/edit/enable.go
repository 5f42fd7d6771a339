package edit

import (
	"slices"

	"gopkg.in/yaml.v3"
)

// enableOrder puts entries in the reverse order of their disabling (the
// seq of their markers), so that enabling several puts each back beside
// the neighbour it was recorded with: the last disabled is the first
// whose neighbours are all in place.
func enableOrder(src []byte, entries []Entry) []Entry {
	out := slices.Clone(entries)
	d, err := Parse(src)
	if err != nil {
		return out
	}
	seq := func(e Entry) int {
		ev, ok, err := d.lookupBlock([]string{DisabledKey, e.Event}, yaml.SequenceNode)
		if err != nil || !ok || e.Index < 0 || e.Index >= len(ev.val.Content) {
			return 0
		}
		start, _, err := d.itemSpan(ev.val, e.Index, ev.key.Line)
		if err != nil {
			return 0
		}
		m, _ := readMarker(d.line(start))
		return m.Seq
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return seq(b) - seq(a) })
	return out
}

func (d *Doc) enableOne(e Entry) ([]byte, error) {
	if err := d.needsFinalNewline(); err != nil {
		return nil, err
	}
	dis, ok, err := d.lookupBlock([]string{DisabledKey}, yaml.MappingNode)
	if err != nil || !ok {
		return nil, orMissing(err, DisabledKey)
	}
	ev, ok, err := d.lookupBlock([]string{DisabledKey, e.Event}, yaml.SequenceNode)
	if err != nil || !ok || e.Index < 0 || e.Index >= len(ev.val.Content) {
		return nil, orMissing(err, DisabledKey+"."+e.Event)
	}
	seq := ev.val
	start, end, err := d.itemSpan(seq, e.Index, ev.key.Line)
	if err != nil {
		return nil, err
	}
	m, found := readMarker(d.line(start))
	if found {
		start++
	}
	item := d.text(start, end)
	dashIndent := indentOf(d.line(d.dashLine(seq, seq.Content[e.Index])))
	markerStart := start
	if found {
		markerStart--
	}
	// Out of hooks_disabled: the item, the event's key when it was the
	// only one, the whole block when it was the last.
	var cut splice
	switch {
	case len(seq.Content) > 1:
		cut = splice{d.lineStart(markerStart), d.lineStart(end + 1), ""}
	case len(dis.val.Content) > 2:
		ki := keyIndex(dis.val, e.Event)
		ks, ke := d.keySpan(dis.val, ki, dis.key.Line)
		cut = splice{d.lineStart(ks), d.lineStart(ke + 1), ""}
	default:
		// Only the key's own lines: a comment above it ends whatever
		// came before (disable wrote the block with none).
		_, ke := d.keySpan(d.root, keyIndex(d.root, DisabledKey), 0)
		cut = splice{d.lineStart(dis.key.Line), d.lineStart(ke + 1), ""}
	}
	put, index, err := d.putBack(e.Event, item, dashIndent, m, found)
	if err != nil {
		return nil, err
	}
	return d.finish([]splice{cut, put}, func(old any) (any, error) {
		return moveValue(old, DisabledKey, "hooks", e.Event, e.Index, index)
	})
}

// putBack is the splice that puts item back under hooks.<event>, and the
// index it gets there (-1: at the end).
func (d *Doc) putBack(event, item string, dashIndent int, m marker, exact bool) (splice, int, error) {
	hooks, hooksOK, err := d.lookupBlock([]string{"hooks"}, yaml.MappingNode)
	if err != nil {
		return splice{}, 0, err
	}
	ev, evOK, err := d.lookupBlock([]string{"hooks", event}, yaml.SequenceNode)
	if err != nil {
		return splice{}, 0, err
	}
	whole := m.Pre + reindent(item, m.Indent-dashIndent) + m.Post
	if exact {
		switch m.At {
		case "before", "after":
			if evOK {
				for j := range ev.val.Content {
					s, e, err := d.itemSpan(ev.val, j, ev.key.Line)
					if err != nil || hashText(d.text(s, e)) != m.Anchor {
						continue
					}
					if m.At == "before" {
						return splice{d.lineStart(s), d.lineStart(s), whole}, j, nil
					}
					return splice{d.lineStart(e + 1), d.lineStart(e + 1), whole}, j + 1, nil
				}
			}
		case "key_before", "key_after":
			if hooksOK && !evOK && ev.key == nil {
				n := len(hooks.val.Content) / 2
				for i := 0; i < n; i++ {
					s, e := d.keySpan(hooks.val, i, hooks.key.Line)
					if hashText(d.text(s, e)) != m.Anchor {
						continue
					}
					if m.At == "key_before" {
						return splice{d.lineStart(s), d.lineStart(s), whole}, 0, nil
					}
					return splice{d.lineStart(e + 1), d.lineStart(e + 1), whole}, 0, nil
				}
			}
		case "hooks":
			if hooks.key != nil && !hooksOK {
				at := d.lineStart(hooks.key.Line + 1)
				return splice{at, at, whole}, 0, nil
			}
		}
	}
	// The neighbours changed: at the end of the event's list.
	switch {
	case evOK:
		_, last, err := d.itemSpan(ev.val, len(ev.val.Content)-1, ev.key.Line)
		if err != nil {
			return splice{}, 0, err
		}
		have := indentOf(d.line(d.dashLine(ev.val, ev.val.Content[0])))
		at := d.lineStart(last + 1)
		return splice{at, at, reindent(item, have-dashIndent)}, -1, nil
	case ev.key != nil: // the event's key with no value
		at := d.lineStart(ev.key.Line + 1)
		want := indentOf(d.line(ev.key.Line)) + 2
		return splice{at, at, reindent(item, want-dashIndent)}, -1, nil
	case hooksOK:
		n := len(hooks.val.Content) / 2
		_, last := d.keySpan(hooks.val, n-1, hooks.key.Line)
		indent := indentOf(d.line(hooks.val.Content[0].Line))
		at := d.lineStart(last + 1)
		return splice{at, at, spaces(indent) + renderKey(event) + ":" + d.nl + reindent(item, indent+2-dashIndent)}, -1, nil
	case hooks.key != nil: // hooks: with no value
		at := d.lineStart(hooks.key.Line + 1)
		return splice{at, at, "  " + renderKey(event) + ":" + d.nl + reindent(item, 4-dashIndent)}, -1, nil
	}
	if hooks.key == nil && d.root != nil && d.root.Kind == yaml.MappingNode {
		at := len(d.body)
		return splice{at, at, "hooks:" + d.nl + "  " + renderKey(event) + ":" + d.nl + reindent(item, 4-dashIndent)}, -1, nil
	}
	return splice{}, 0, &UnsafeError{"hooks: is not a mapping in block style"}
}
