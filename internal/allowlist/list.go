package allowlist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// List is the content of the allowlist file.
//
// Approvals holds the well-formed entries in file order. Change it through
// Approve, Revoke and Remove: they keep the lookup index built and the
// position of malformed items right. Between changes, a list may be
// searched (Find, Index) from many goroutines at once; changing it may not.
type List struct {
	Approvals []Entry

	// top holds the file's top-level members; all but approvals are
	// written back as they were.
	top map[string]json.RawMessage
	// odd are approval items that are not well-formed entries, kept so
	// nothing the user had is thrown away; they never match a hook.
	odd []oddItem

	index    Index
	indexLen int
	indexAt  *Entry
	// perItem is the bytes an item took in the file read (0: none read),
	// to size the buffer it is written into.
	perItem int
}

// oddItem is a malformed approvals item and its place: the number of
// well-formed entries before it.
type oddItem struct {
	at    int
	value json.RawMessage
}

// Index maps each (event, command) to the position of its first entry in
// Approvals: the one the agent finds (SPEC §14).
type Index map[Key]int

// Index returns a lookup table of the approvals (not to be modified), built
// once and reused until the list changes, so matching m hooks against n
// entries costs O(n + m).
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
		if _, dup := idx[e.Key()]; !dup {
			idx[e.Key()] = i
		}
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
	idx := l.Index()
	if i, ok := idx[e.Key()]; ok {
		old := l.Approvals[i]
		l.filter(func(x Entry) bool { return x.Key() != e.Key() })
		if e.src == nil && e.extra == nil {
			if extra := old.unknownKeys(); extra.Len() > 0 {
				e.extra = extra
			}
		}
		l.Approvals = append(l.Approvals, e)
		l.index = nil
		l.Index()
		return
	}
	// A new pair (the usual case): extend the index instead of rebuilding
	// it, so approving many hooks into a long list stays linear.
	l.Approvals = append(l.Approvals, e)
	idx[e.Key()] = len(l.Approvals) - 1
	l.indexLen, l.indexAt = len(l.Approvals), &l.Approvals[0]
}

// Revoke removes every entry for command, whatever its event, and returns
// how many were removed. Malformed items are never removed.
func (l *List) Revoke(command string) int {
	return l.filter(func(x Entry) bool { return x.Command != command })
}

// Remove removes every entry for which drop is true and returns them, in
// file order. Malformed items are never removed.
func (l *List) Remove(drop func(Entry) bool) []Entry {
	var gone []Entry
	for _, e := range l.Approvals {
		if drop(e) {
			gone = append(gone, e)
		}
	}
	if len(gone) > 0 {
		l.filter(func(x Entry) bool { return !drop(x) })
	}
	return gone
}

// filter keeps the entries for which keep is true, moves malformed items
// so they stay between the same neighbours, and returns how many went.
func (l *List) filter(keep func(Entry) bool) int {
	first := 0
	for first < len(l.Approvals) && keep(l.Approvals[first]) {
		first++
	}
	if first == len(l.Approvals) {
		return 0
	}
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
	// A list that had an index gets a new one now (it may be read from
	// several goroutines); one that had none is left without.
	had := l.index != nil
	l.Approvals = kept
	l.index = nil
	if had {
		l.Index()
	}
	return removed
}

// clone is a copy of l that a change of either leaves the other as it is
// (entries are replaced in a list, never changed in place).
func (l *List) clone() *List {
	c := *l
	c.Approvals = slices.Clone(l.Approvals)
	c.odd = slices.Clone(l.odd)
	c.index, c.indexLen, c.indexAt = nil, 0, nil
	return &c
}

// encode writes the list as Python's json.dumps(indent=2, sort_keys=True,
// ensure_ascii=False) would, without a trailing newline.
func (l *List) encode() []byte {
	items, _ := l.writtenAll()
	return l.encodeWith(func(i int) any { return items[i] }, nil, textSize(items))
}

// encodeKeeping is encode that also has each entry written afresh keep
// its text as written and itself as that text reads, as decode would
// have it: the next encode of l copies the text instead of writing the
// entry again (protect writes its 100,000 new approvals twice, around the
// config's edit). For a list only its Update holds.
func (l *List) encodeKeeping() []byte {
	type span struct{ i, start, end int }
	var fresh []span
	items, made := l.writtenAll()
	data := l.encodeWith(func(i int) any { return items[i] }, func(entry, start, end int) {
		if made[entry] {
			fresh = append(fresh, span{entry, start, end})
		}
	}, textSize(items))
	for _, f := range fresh {
		e := &l.Approvals[f.i]
		e.src = json.RawMessage(data[f.start:f.end:f.end])
		read := *e
		read.read = nil
		e.read = &read
	}
	return data
}

// writtenAll is each entry as written() has it, the text of one made
// afresh already written at its depth in the file (made true), so that the
// file's single pass copies every entry. A long list is done on every CPU
// at once: protect --all writes 100,000 new approvals, 1.4 s on one (SPEC
// §29 item 2).
func (l *List) writtenAll() (items []any, made []bool) {
	n := len(l.Approvals)
	items, made = make([]any, n), make([]bool, n)
	opts := fileLayout
	opts.SizeHint = l.itemSize()
	one := func(i int) {
		v := l.Approvals[i].written()
		if _, copied := v.(json.RawMessage); !copied {
			v, made[i] = json.RawMessage(pyjson.MarshalAt(v, itemDepth, opts)), true
		}
		items[i] = v
	}
	// In chunks taken in turn: the new entries, which cost the most,
	// are together at the end.
	const chunk = 256
	chunks := (n + chunk - 1) / chunk
	var next atomic.Int64
	work := func() {
		for k := int(next.Add(1)) - 1; k < chunks; k = int(next.Add(1)) - 1 {
			for i := k * chunk; i < min(n, (k+1)*chunk); i++ {
				one(i)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), chunks) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	return items, made
}

// itemSize is about how many bytes an entry takes in the file.
func (l *List) itemSize() int {
	if l.perItem == 0 {
		return 400 // an entry with its code, indented
	}
	return l.perItem
}

// textSize is how many bytes the entries written take in the file: their
// text, each on a line of its own. The file's buffer is made that big at
// once (an estimate a little short doubled it: 276 MB for protect --all
// over 100,000 scripts).
func textSize(items []any) int {
	n := 0
	for _, v := range items {
		n += len(v.(json.RawMessage)) + len(",\n") + itemDepth*fileLayout.Indent
	}
	return n
}

// encodeWith is encode with entry i made by item(i), and wrote, when set,
// told where entry i's text is in the result; size is how many bytes
// the entries take (0: not known).
func (l *List) encodeWith(item func(i int) any, wrote func(entry, start, end int), size int) []byte {
	top := pyjson.NewObject()
	for k, v := range l.top {
		if k != "approvals" {
			top.Set(k, decodeValue(v))
		}
	}
	// The items in the file's order (the malformed ones where they were),
	// each made only as it is written.
	type slot struct {
		odd bool
		i   int
	}
	slots := make([]slot, 0, len(l.Approvals)+len(l.odd))
	o := 0
	for i := range l.Approvals {
		for ; o < len(l.odd) && l.odd[o].at <= i; o++ {
			slots = append(slots, slot{true, o})
		}
		slots = append(slots, slot{false, i})
	}
	for ; o < len(l.odd); o++ {
		slots = append(slots, slot{true, o})
	}
	items := pyjson.Items{Len: len(slots), Item: func(i int) any {
		if s := slots[i]; s.odd {
			return decodeValue(l.odd[s.i].value)
		}
		return item(slots[i].i)
	}}
	if wrote != nil {
		items.Wrote = func(i, start, end int) {
			if s := slots[i]; !s.odd {
				wrote(s.i, start, end)
			}
		}
	}
	top.Set("approvals", items)
	if size == 0 {
		size = l.itemSize() * len(l.Approvals) * 9 / 8
	}
	opts := fileLayout
	opts.SizeHint = size + l.itemSize()*len(l.odd) + 256
	return pyjson.Marshal(top, opts)
}

// fileLayout is how the file is written: Python's json.dump(indent=2,
// sort_keys=True) with numbers as read. An entry sits at itemDepth: in
// the list of "approvals", in the top object.
var fileLayout = pyjson.Options{Indent: 2, SortKeys: true, KeepNumbers: true}

const itemDepth = 2

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decode reads the file's bytes. A file that cannot be used at all reads as
// an empty list and corrupt says why ("" otherwise); items that are not
// well-formed entries are kept aside with a warning. path is for messages.
//
// Reading slices the text as it validates it (one pass, validate.go)
// instead of decoding a tree: several times faster than an ordered
// token-by-token decode. Key order is not
// needed since the file is written with sorted keys; values are decoded
// with pyjson only when the list is written.
func decode(data []byte, path string) (l *List, warnings []string, corrupt string) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if !utf8.Valid(data) {
		return &List{}, nil, "not valid UTF-8"
	}
	top, items, valid := scanTop(data)
	if !valid {
		if _, err := pyjson.Decode(data); err != nil { // its message says where
			return &List{}, nil, "not valid JSON (" + err.Error() + ")"
		}
		// The agent's reader (Python's json) also takes NaN, Infinity and
		// -Infinity, and what it reads we read: the walker slices such bare
		// words like any number.
		top, items = walkTop(data)
	}
	if kind := jsonKind(data); kind != "an object" {
		return &List{}, nil, "not a JSON object (it is " + kind + ")"
	}
	l = &List{top: top}
	raw, present := top["approvals"]
	if !present {
		return l, nil, ""
	}
	if kind := jsonKind(raw); kind != "a list" {
		return &List{}, nil, `not usable: "approvals" is ` + kind + ", not a list"
	}
	l.Approvals = make([]Entry, 0, len(items))
	if len(items) > 0 {
		l.perItem = len(data) / len(items)
	}
	txt := newText(data)
	txt.valid = valid // json.Valid's answer, and utf8.Valid passed
	for i, item := range items {
		e, ok := entryFrom(item, txt)
		if !ok {
			l.odd = append(l.odd, oddItem{at: len(l.Approvals), value: item})
			warnings = append(warnings, fmt.Sprintf(
				`allowlist %s: approvals[%d] is not an object with a string "event" and "command"; it is kept in the file but approves nothing`,
				path, i))
			continue
		}
		l.Approvals = append(l.Approvals, e)
	}
	// Each entry keeps itself as read, so that writing it back knows
	// whether it changed without reading its text again (Entry.written;
	// 1.2 s of a protect --all of 100,000 hooks). The copies share their
	// Code and ScriptMtime with the entries: both are replaced, never
	// changed in place.
	reads := slices.Clone(l.Approvals)
	for i := range l.Approvals {
		l.Approvals[i].read = &reads[i]
	}
	return l, warnings, ""
}

// scanTop validates data as JSON and, in the same pass, returns the
// members of the top-level object and the elements of its (last)
// "approvals" member when that is a list. valid is false for text
// json.Valid would refuse.
func scanTop(data []byte) (top map[string]json.RawMessage, items []json.RawMessage, valid bool) {
	v := &validator{data: data}
	start := skipSpace(data, 0)
	var end int
	if start < len(data) && data[start] == '{' {
		top = map[string]json.RawMessage{}
		end = v.object(start, func(key, _ []byte, at int) int {
			name := unquote(key)
			var vend int
			if name == "approvals" && at < len(data) && data[at] == '[' {
				items = items[:0]
				vend = v.array(at, func(item []byte) { items = append(items, item) })
			} else {
				if name == "approvals" {
					items = nil
				}
				vend = v.value(at)
			}
			if vend >= 0 {
				top[name] = data[at:vend]
			}
			return vend
		})
	} else {
		end = v.value(start)
	}
	return top, items, end >= 0 && skipSpace(data, end) == len(data)
}

// walkTop is scanTop for text pyjson accepted but JSON does not (NaN,
// Infinity): no validation, the walker of scan.go.
func walkTop(data []byte) (top map[string]json.RawMessage, items []json.RawMessage) {
	top = map[string]json.RawMessage{}
	eachMember(data, func(key, value []byte) { top[unquote(key)] = value })
	if raw, ok := top["approvals"]; ok && jsonKind(raw) == "a list" {
		eachElement(raw, func(value []byte) { items = append(items, value) })
	}
	return top, items
}

// decodeValue turns a raw value read by decode into pyjson's form for
// writing; raw text is kept if that ever fails, so nothing is lost.
func decodeValue(raw json.RawMessage) any {
	v, err := pyjson.Decode(raw)
	if err != nil {
		return raw
	}
	return v
}
