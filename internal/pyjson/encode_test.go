package pyjson

import (
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
