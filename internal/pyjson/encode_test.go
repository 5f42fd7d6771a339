package pyjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestItemsWrote: Wrote is told where each item's text is in the output,
// which is the item written alone at its depth.
func TestItemsWrote(t *testing.T) {
	values := []any{map[string]any{"b": 1, "a": []any{"x"}}, "s", nil, map[string]any{}}
	var spans [][2]int
	out := Marshal(map[string]any{"l": Items{Len: len(values), Item: func(i int) any { return values[i] },
		Wrote: func(i, start, end int) { spans = append(spans, [2]int{start, end}) }}}, Options{Indent: 2, SortKeys: true})
	if len(spans) != len(values) {
		t.Fatalf("told of %d items, want %d", len(spans), len(values))
	}
	for i, sp := range spans {
		got, err := Decode(out[sp[0]:sp[1]])
		if err != nil {
			t.Fatalf("item %d: %q: %v", i, out[sp[0]:sp[1]], err)
		}
		if want, _ := Decode(Marshal(values[i], Options{})); !reflect.DeepEqual(got, want) {
			t.Errorf("item %d: %q reads %#v, want %#v", i, out[sp[0]:sp[1]], got, want)
		}
	}
}

// TestMarshalAt: a part written apart at its depth and put in as a
// json.RawMessage gives the bytes of the whole written at once, in every
// layout.
func TestMarshalAt(t *testing.T) {
	inner := func() *Object {
		o := NewObject()
		o.Set("b", []any{"x", map[string]any{"k": json.Number("1.50"), "e": []any{}}})
		o.Set("a", "é\n")
		return o
	}
	for _, opts := range []Options{{Indent: 2, SortKeys: true, KeepNumbers: true}, {Indent: 4}, {}, {Compact: true}} {
		whole := map[string]any{"approvals": []any{inner(), inner()}}
		part := json.RawMessage(MarshalAt(inner(), 2, opts))
		apart := map[string]any{"approvals": []any{part, part}}
		if got, want := Marshal(apart, opts), Marshal(whole, opts); !bytes.Equal(got, want) {
			t.Errorf("%+v: put together\n%s\nwritten whole\n%s", opts, got, want)
		}
	}
}
