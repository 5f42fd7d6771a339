package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// DisabledKey is the top-level key disabled hooks move under (SPEC §27):
// the shape of hooks:, a key the agent does not read, so it registers
// nothing from it. (Inside an entry, the agent ignores unknown keys: an
// `enabled: false` there would still run.)
const DisabledKey = "hooks_disabled"

// Entry names one item of an event's list: hooks.<Event>[Index] for
// Disable, hooks_disabled.<Event>[Index] for Enable.
type Entry struct {
	Event string
	Index int
}

// markerPrefix starts the comment line Disable writes above an entry it
// moves: how to put it back exactly where it was.
const markerPrefix = "# hermes hooks enable: "

// marker is what the comment records. The entry goes back Before (or
// After) the item or key whose text hashes to Anchor, with Pre and Post —
// blank lines, and the event's key when the list was left empty — around
// it, byte for byte. At "hooks": right after the hooks: line.
type marker struct {
	Seq    int    `json:"seq"`
	At     string `json:"at"` // before, after, key_before, key_after, hooks
	Anchor string `json:"anchor,omitempty"`
	Indent int    `json:"indent"` // of the entry's '-' where it was
	Pre    string `json:"pre,omitempty"`
	Post   string `json:"post,omitempty"`
}

// Disable moves the entries named (indexes into the hooks: lists as the
// file is now) under DisabledKey, one by one, each with its comments; an
// event whose list is left empty loses its key. Enable undoes it byte for
// byte while the neighbours are unchanged.
func Disable(src []byte, entries []Entry) ([]byte, error) {
	return moveEach(src, entries, func(d *Doc, e Entry) ([]byte, error) { return d.disableOne(e) })
}

// Enable moves the entries named (indexes into the hooks_disabled: lists)
// back into hooks:, at their old place when the neighbour recorded is
// still there, else at the end of their event's list; DisabledKey goes
// when it is left empty.
func Enable(src []byte, entries []Entry) ([]byte, error) {
	return moveEach(src, enableOrder(src, entries), func(d *Doc, e Entry) ([]byte, error) { return d.enableOne(e) })
}

// moveEach moves entries one at a time, re-reading the file after each,
// in the order given: an index given for the file as it was shifts when an
// entry before it in the same list moved.
func moveEach(src []byte, entries []Entry, one func(*Doc, Entry) ([]byte, error)) ([]byte, error) {
	rest := slices.Clone(entries)
	out := src
	for len(rest) > 0 {
		e := rest[0]
		rest = rest[1:]
		d, err := Parse(out)
		if err != nil {
			return nil, err
		}
		if out, err = one(d, e); err != nil {
			return nil, err
		}
		for i := range rest {
			if rest[i].Event == e.Event && rest[i].Index > e.Index {
				rest[i].Index--
			}
		}
	}
	return out, nil
}

// readMarker reads a marker line.
func readMarker(line string) (marker, bool) {
	var m marker
	j, ok := strings.CutPrefix(strings.TrimSpace(line), markerPrefix)
	return m, ok && json.Unmarshal([]byte(j), &m) == nil
}

// nextSeq is one more than the highest seq of the markers in the file.
func (d *Doc) nextSeq() int {
	top := 0
	for l := 1; l <= d.numLines(); l++ {
		if m, ok := readMarker(d.line(l)); ok && m.Seq > top {
			top = m.Seq
		}
	}
	return top + 1
}

// block is a list (or mapping) of the file in block style, with what an
// edit needs to know about its items.
type block struct {
	key *yaml.Node // the key whose value it is
	val *yaml.Node // the list or mapping
}

// lookupBlock finds path's list or mapping in block style. ok false when
// absent; an error when it is there in a form this edit does not make
// (flow style, an alias).
func (d *Doc) lookupBlock(path []string, kind yaml.Kind) (block, bool, error) {
	n := d.root
	var k, v *yaml.Node
	for _, p := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return block{}, false, nil
		}
		k, v = findKey(n, p)
		if k == nil {
			return block{}, false, nil
		}
		if v.Kind == yaml.AliasNode || v.Anchor != "" && d.aliasTo(v) {
			return block{}, false, refused(k.Line, "%s is an alias or reused through an anchor; edit it by hand", strings.Join(path, "."))
		}
		n = v
	}
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return block{key: k, val: v}, false, nil
	}
	if v.Kind != kind || v.Style&yaml.FlowStyle != 0 {
		return block{}, false, refused(k.Line, "%s is not a list (or mapping) in block style; edit it by hand", strings.Join(path, "."))
	}
	return block{key: k, val: v}, true, nil
}

// head is the first line of the comments right above line l (l itself
// when there are none).
func (d *Doc) head(l, floor int) int {
	for l-1 > floor && isComment(d.line(l-1)) {
		l--
	}
	return l
}

// itemSpan is the lines of a list's item j: its comments above, its dash
// line, to its last content line (comments indented deeper than its dash
// included).
func (d *Doc) itemSpan(seq *yaml.Node, j int, floor int) (start, end int, err error) {
	it := seq.Content[j]
	dash := d.dashLine(seq, it)
	if dash == 0 {
		return 0, 0, &UnsafeError{"cannot find the '-' of a list item"}
	}
	if j > 0 {
		_, prevEnd, _ := d.itemSpan(seq, j-1, floor)
		floor = prevEnd
	}
	return d.head(dash, floor), d.lastContent(it.Line, d.nextLine(it), indentOf(d.line(dash))+1), nil
}

// keySpan is the lines of a mapping's pair i: comments above the key, to
// the last content line of its value.
func (d *Doc) keySpan(m *yaml.Node, i int, floor int) (start, end int) {
	k, v := m.Content[2*i], m.Content[2*i+1]
	if i > 0 {
		_, floor = d.keySpan(m, i-1, floor)
	}
	return d.head(k.Line, floor), d.lastContent(k.Line, d.nextLine(v), indentOf(d.line(k.Line))+1)
}

// text is the bytes of lines [s, e].
func (d *Doc) text(s, e int) string {
	if e < s {
		return ""
	}
	return string(d.body[d.lineStart(s):d.lineStart(e+1)])
}

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

// keyIndex is the pair index of key in mapping m, -1 when absent.
func keyIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i / 2
		}
	}
	return -1
}

func (d *Doc) needsFinalNewline() error {
	if len(d.body) > 0 && d.body[len(d.body)-1] != '\n' {
		return &UnsafeError{"the file does not end with a line break; add one and try again"}
	}
	return nil
}

func (d *Doc) disableOne(e Entry) ([]byte, error) {
	if err := d.needsFinalNewline(); err != nil {
		return nil, err
	}
	hooks, ok, err := d.lookupBlock([]string{"hooks"}, yaml.MappingNode)
	if err != nil || !ok {
		return nil, orMissing(err, "hooks")
	}
	ev, ok, err := d.lookupBlock([]string{"hooks", e.Event}, yaml.SequenceNode)
	if err != nil || !ok || e.Index < 0 || e.Index >= len(ev.val.Content) {
		return nil, orMissing(err, "hooks."+e.Event)
	}
	seq := ev.val
	floor := ev.key.Line
	start, end, err := d.itemSpan(seq, e.Index, floor)
	if err != nil {
		return nil, err
	}
	item := d.text(start, end)
	var m marker
	var cutS, cutE int
	switch {
	case e.Index+1 < len(seq.Content):
		ns, ne, err := d.itemSpan(seq, e.Index+1, floor)
		if err != nil {
			return nil, err
		}
		m = marker{At: "before", Anchor: hashText(d.text(ns, ne)), Post: d.text(end+1, ns-1)}
		cutS, cutE = start, ns-1
	case e.Index > 0:
		ps, pe, err := d.itemSpan(seq, e.Index-1, floor)
		if err != nil {
			return nil, err
		}
		m = marker{At: "after", Anchor: hashText(d.text(ps, pe)), Pre: d.text(pe+1, start-1)}
		cutS, cutE = pe+1, end
	default: // the only item: its event's key goes too
		ki := keyIndex(hooks.val, e.Event)
		ks, ke := d.keySpan(hooks.val, ki, hooks.key.Line)
		n := len(hooks.val.Content) / 2
		switch {
		case ki+1 < n:
			ns, ne := d.keySpan(hooks.val, ki+1, hooks.key.Line)
			m = marker{At: "key_before", Anchor: hashText(d.text(ns, ne)), Pre: d.text(ks, start-1), Post: d.text(end+1, ns-1)}
			cutS, cutE = ks, ns-1
		case ki > 0:
			ps, pe := d.keySpan(hooks.val, ki-1, hooks.key.Line)
			m = marker{At: "key_after", Anchor: hashText(d.text(ps, pe)), Pre: d.text(pe+1, start-1), Post: d.text(end+1, ke)}
			cutS, cutE = pe+1, ke
		default:
			m = marker{At: "hooks", Pre: d.text(hooks.key.Line+1, start-1), Post: d.text(end+1, ke)}
			cutS, cutE = hooks.key.Line+1, ke
		}
	}
	m.Seq = d.nextSeq()
	m.Indent = indentOf(d.line(d.dashLine(seq, seq.Content[e.Index])))
	mj, _ := json.Marshal(m)
	dashIndent := indentOf(d.line(d.dashLine(seq, seq.Content[e.Index])))
	moved := spaces(dashIndent) + markerPrefix + string(mj) + d.nl + item

	sp := []splice{{d.lineStart(cutS), d.lineStart(cutE + 1), ""}}
	add, err := d.addDisabled(e.Event, moved, dashIndent, indentOf(d.line(ev.key.Line)))
	if err != nil {
		return nil, err
	}
	sp = append(sp, add)
	return d.finish(sp, func(old any) (any, error) { return moveValue(old, "hooks", DisabledKey, e.Event, e.Index, -1) })
}

// addDisabled is the splice that appends moved (an item's lines, its
// dash at dashIndent) to hooks_disabled.<event>, creating the key (at
// keyIndent, as the event's key was under hooks:) and hooks_disabled
// itself at the end of the file when needed.
func (d *Doc) addDisabled(event, moved string, dashIndent, keyIndent int) (splice, error) {
	dis, ok, err := d.lookupBlock([]string{DisabledKey}, yaml.MappingNode)
	if err != nil {
		return splice{}, err
	}
	end := len(d.body)
	if !ok {
		if dis.key != nil { // hooks_disabled: with no value
			at := d.lineStart(dis.key.Line + 1)
			return splice{at, at, spaces(keyIndent) + renderKey(event) + ":" + d.nl + moved}, nil
		}
		return splice{end, end, DisabledKey + ":" + d.nl + spaces(keyIndent) + renderKey(event) + ":" + d.nl + moved}, nil
	}
	ev, ok, err := d.lookupBlock([]string{DisabledKey, event}, yaml.SequenceNode)
	if err != nil {
		return splice{}, err
	}
	if !ok {
		_, last := d.keySpan(dis.val, len(dis.val.Content)/2-1, dis.key.Line)
		indent := indentOf(d.line(dis.val.Content[0].Line))
		at := d.lineStart(last + 1)
		if ev.key != nil { // the key is there with no value
			at = d.lineStart(ev.key.Line + 1)
			return splice{at, at, reindent(moved, indentOf(d.line(ev.key.Line))-keyIndent)}, nil
		}
		return splice{at, at, spaces(indent) + renderKey(event) + ":" + d.nl + reindent(moved, indent-keyIndent)}, nil
	}
	_, last, err := d.itemSpan(ev.val, len(ev.val.Content)-1, ev.key.Line)
	if err != nil {
		return splice{}, err
	}
	have := indentOf(d.line(d.dashLine(ev.val, ev.val.Content[0])))
	at := d.lineStart(last + 1)
	return splice{at, at, reindent(moved, have-dashIndent)}, nil
}

// reindent shifts every non-blank line of text by delta columns (never
// below its own indentation).
func reindent(text string, delta int) string {
	if delta == 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if delta > 0 {
			lines[i] = spaces(delta) + l
		} else {
			cut := min(-delta, indentOf(l))
			lines[i] = l[cut:]
		}
	}
	return strings.Join(lines, "")
}

func orMissing(err error, path string) error {
	if err != nil {
		return err
	}
	return &UnsafeError{path + " is not there (the file changed?)"}
}

// moveValue is the meaning a move must have: item i of from.<event>
// removed (the event's key with it when its list is left empty, from
// itself when it is left empty and is hooks_disabled), and inserted into
// to.<event> at index at (-1: appended).
func moveValue(old any, from, to, event string, i, at int) (any, error) {
	root, ok := old.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the top level is not a mapping")
	}
	out := make(map[string]any, len(root)+1)
	for k, v := range root {
		out[k] = v
	}
	src, _ := out[from].(map[string]any)
	list, _ := src[event].([]any)
	if i < 0 || i >= len(list) {
		return nil, fmt.Errorf("%s.%s has no item %d", from, event, i)
	}
	item := list[i]
	newSrc := make(map[string]any, len(src))
	for k, v := range src {
		newSrc[k] = v
	}
	rest := slices.Delete(slices.Clone(list), i, i+1)
	if len(rest) == 0 {
		delete(newSrc, event)
	} else {
		newSrc[event] = rest
	}
	switch {
	case len(newSrc) > 0:
		out[from] = newSrc
	case from == DisabledKey:
		delete(out, from)
	default:
		out[from] = nil
	}
	dst, _ := out[to].(map[string]any)
	newDst := make(map[string]any, len(dst)+1)
	for k, v := range dst {
		newDst[k] = v
	}
	dl, _ := newDst[event].([]any)
	dl = slices.Clone(dl)
	if at < 0 || at > len(dl) {
		dl = append(dl, item)
	} else {
		dl = slices.Insert(dl, at, item)
	}
	newDst[event] = dl
	out[to] = newDst
	return out, nil
}
