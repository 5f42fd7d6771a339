package allowlist

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// List is the content of the allowlist file.
//
// Approvals holds the well-formed entries in file order. Change it through
// Approve and Revoke: they keep the lookup index and the position of
// malformed items right.
type List struct {
	Approvals []Entry

	// top is the file's top-level object; its other keys are written back.
	top *pyjson.Object
	// odd are approval items that are not well-formed entries, kept so
	// nothing the user had is thrown away; they never match a hook.
	odd []oddItem

	index    Index
	indexLen int
	indexAt  *Entry
}

// oddItem is a malformed approvals item and its place: the number of
// well-formed entries before it.
type oddItem struct {
	at    int
	value any
}

// Index maps each (event, command) to the position of its last entry in
// Approvals.
type Index map[Key]int

// Index returns a lookup table of the approvals, built once and reused
// until the list changes, so matching m hooks against n entries costs
// O(n + m).
func (l *List) Index() Index {
	var first *Entry
	if len(l.Approvals) > 0 {
		first = &l.Approvals[0]
	}
	if l.index != nil && l.indexLen == len(l.Approvals) && l.indexAt == first {
		return l.index
	}
	idx := make(Index, len(l.Approvals))
	for i, e := range l.Approvals {
		idx[e.Key()] = i
	}
	l.index, l.indexLen, l.indexAt = idx, len(l.Approvals), first
	return idx
}

// Find returns the entry approving (event, command), compared exactly and
// case-sensitively, as the agent does.
func (l *List) Find(event, command string) (Entry, bool) {
	i, ok := l.Index()[Key{event, command}]
	if !ok {
		return Entry{}, false
	}
	return l.Approvals[i], true
}

// Approve records e: any entry for the same (event, command) is removed and
// e is appended at the end. Keys this package does not know are carried
// over from the replaced entry when e is new.
func (l *List) Approve(e Entry) {
	var old *Entry
	if i, ok := l.Index()[e.Key()]; ok {
		prev := l.Approvals[i]
		old = &prev
	}
	l.filter(func(x Entry) bool { return x.Key() != e.Key() })
	if old != nil && old.raw != nil && e.raw == nil {
		extra := old.raw.Clone()
		for _, k := range knownKeys {
			extra.Delete(k)
		}
		e.raw, e.parsed = extra, nil
	}
	l.Approvals = append(l.Approvals, e)
	l.index = nil
}

// Revoke removes every entry for command, whatever its event, and returns
// how many were removed. Malformed items are never removed.
func (l *List) Revoke(command string) int {
	return l.filter(func(x Entry) bool { return x.Command != command })
}

// filter keeps the entries for which keep is true, moves malformed items
// so they stay between the same neighbours, and returns how many went.
func (l *List) filter(keep func(Entry) bool) int {
	kept := make([]Entry, 0, len(l.Approvals))
	before := make([]int, len(l.Approvals)+1) // kept entries before old index i
	for i, e := range l.Approvals {
		before[i] = len(kept)
		if keep(e) {
			kept = append(kept, e)
		}
	}
	before[len(l.Approvals)] = len(kept)
	removed := len(l.Approvals) - len(kept)
	if removed == 0 {
		return 0
	}
	for i := range l.odd {
		l.odd[i].at = before[min(l.odd[i].at, len(l.Approvals))]
	}
	l.Approvals = kept
	l.index = nil
	return removed
}

// encode writes the list as Python's json.dumps(indent=2, sort_keys=True,
// ensure_ascii=False) would, without a trailing newline.
func (l *List) encode() []byte {
	top := pyjson.NewObject()
	if l.top != nil {
		top = l.top.Clone()
	}
	items := make([]any, 0, len(l.Approvals)+len(l.odd))
	o := 0
	for i, e := range l.Approvals {
		for ; o < len(l.odd) && l.odd[o].at <= i; o++ {
			items = append(items, l.odd[o].value)
		}
		items = append(items, e.object())
	}
	for ; o < len(l.odd); o++ {
		items = append(items, l.odd[o].value)
	}
	top.Set("approvals", items)
	return pyjson.Marshal(top, pyjson.Options{Indent: 2, SortKeys: true})
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decode reads the file's bytes. A file that cannot be used at all reads as
// an empty list and corrupt says why ("" otherwise); items that are not
// well-formed entries are kept aside with a warning. path is for messages.
func decode(data []byte, path string) (l *List, warnings []string, corrupt string) {
	l = &List{}
	data = bytes.TrimPrefix(data, utf8BOM)
	if !utf8.Valid(data) {
		return &List{}, nil, "not valid UTF-8"
	}
	v, err := pyjson.Decode(data)
	if err != nil {
		return &List{}, nil, "not valid JSON (" + err.Error() + ")"
	}
	top, ok := v.(*pyjson.Object)
	if !ok {
		return &List{}, nil, "not a JSON object (it is " + pyjson.TypeName(v) + ")"
	}
	l.top = top
	raw, present := top.Get("approvals")
	if !present {
		return l, nil, ""
	}
	items, ok := raw.([]any)
	if !ok {
		return &List{}, nil, `not usable: "approvals" is ` + pyjson.TypeName(raw) + ", not a list"
	}
	l.Approvals = make([]Entry, 0, len(items))
	for i, item := range items {
		e, ok := entryFrom(item)
		if !ok {
			l.odd = append(l.odd, oddItem{at: len(l.Approvals), value: item})
			warnings = append(warnings, fmt.Sprintf(
				`allowlist %s: approvals[%d] is not an object with a string "event" and "command"; it is kept in the file but approves nothing`,
				path, i))
			continue
		}
		l.Approvals = append(l.Approvals, e)
	}
	return l, warnings, ""
}
