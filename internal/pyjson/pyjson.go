// Package pyjson reads JSON keeping object key order and writes it the way
// Python's json.dumps does (ensure_ascii=False), so files and payloads this
// tool produces are byte-compatible with the Hermes agent's.
//
// Decoded values are nil, bool, json.Number (NaN, Infinity and -Infinity
// included, as Python reads them), string, []any and *Object. Numbers keep
// their text until written, then are spelled as Python would print the
// value (PyNumber).
package pyjson

import (
	"errors"
	"maps"
)

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value any
}

// Object is a JSON object that remembers the order of its keys.
type Object struct {
	members []Member
	// idx maps each key to its place once the object has indexFrom keys
	// or more, so that reading or building a wide object stays linear.
	// Only the methods that change the object build it: reads from
	// several goroutines never write.
	idx map[string]int
}

// indexFrom is the width from which an object keeps idx; below it a
// linear search is cheaper than hashing.
const indexFrom = 32

// NullIfEmpty is s for a JSON field, or nil (null) when s is "" (absent).
func NullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{} }

// Len is the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.members)
}

// Members returns the pairs in order. The slice must not be modified.
func (o *Object) Members() []Member {
	if o == nil {
		return nil
	}
	return o.members
}

// Keys returns the keys in order.
func (o *Object) Keys() []string {
	keys := make([]string, 0, o.Len())
	for _, m := range o.Members() {
		keys = append(keys, m.Key)
	}
	return keys
}

func (o *Object) index(key string) int {
	if o != nil && o.idx != nil {
		if i, ok := o.idx[key]; ok {
			return i
		}
		return -1
	}
	for i, m := range o.Members() {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	if i := o.index(key); i >= 0 {
		return o.members[i].Value, true
	}
	return nil, false
}

// Value is the value of key, nil when absent (or o is nil).
func (o *Object) Value(key string) any {
	v, _ := o.Get(key)
	return v
}

// Str is the value of key when it is a string, else "".
func (o *Object) Str(key string) string {
	s, _ := o.Value(key).(string)
	return s
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool { return o.index(key) >= 0 }

// Set replaces the value of key in place, or appends key at the end.
func (o *Object) Set(key string, value any) *Object {
	if o.idx == nil && len(o.members) >= indexFrom {
		o.reindex()
	}
	if i := o.index(key); i >= 0 {
		o.members[i].Value = value
	} else {
		if o.idx != nil {
			o.idx[key] = len(o.members)
		}
		o.members = append(o.members, Member{key, value})
	}
	return o
}

func (o *Object) reindex() {
	o.idx = make(map[string]int, len(o.members))
	for i, m := range o.members {
		o.idx[m.Key] = i
	}
}

// Delete removes key if present.
func (o *Object) Delete(key string) {
	if i := o.index(key); i >= 0 {
		o.members = append(o.members[:i:i], o.members[i+1:]...)
		if o.idx = nil; len(o.members) >= indexFrom {
			o.reindex()
		}
	}
}

// Clone returns a shallow copy (values are shared).
func (o *Object) Clone() *Object {
	c := &Object{members: make([]Member, o.Len())}
	copy(c.members, o.Members())
	if o != nil && o.idx != nil {
		c.idx = maps.Clone(o.idx)
	}
	return c
}

// String returns the Python-style compact text of the object.
func (o *Object) String() string { return string(Marshal(o, Options{})) }

// MarshalJSON writes the object compactly, keys in order, so typed --json
// output can embed it (NaN and Infinity as placeholders: see
// Options.Embed).
func (o *Object) MarshalJSON() ([]byte, error) {
	return Marshal(o, Options{Compact: true, Embed: true}), nil
}

// UnmarshalJSON reads an object keeping key order.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := Decode(data)
	if err != nil {
		return err
	}
	obj, ok := v.(*Object)
	if !ok {
		return errors.New("pyjson: not a JSON object")
	}
	*o = *obj
	return nil
}
