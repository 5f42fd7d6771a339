package pyjson

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes decoding doc allocates.
func allocated(t *testing.T, doc []byte) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Decode(doc); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestDecodeAllocatesLinearly: eight times the elements cost about eight
// times the memory (up to 16× as lists grow by doubling; quadratic
// copying gives 64×), for every kind of element. The decoder used to
// copy the rest of the input at each true, false, null and number (50,000
// numbers took 34 s); the copies showed as quadratic allocation, which
// this measures without a clock. Time per element is in BenchmarkDecode.
func TestDecodeAllocatesLinearly(t *testing.T) {
	for _, kind := range []string{"numbers", "literals", "strings", "keys", "nested"} {
		small, large := allocated(t, benchDoc(kind, 2_500)), allocated(t, benchDoc(kind, 20_000))
		if large > 24*small {
			t.Errorf("%s: 2,500 elements allocate %d bytes, 20,000 allocate %d (%.1f×, want about 8×)",
				kind, small, large, float64(large)/float64(small))
		}
	}
}

// TestWideObjectIndex: an object of many keys built by Decode or by Set
// finds every key through its index, keeps the first place of a repeated
// key with the last value, and stays consistent through Delete and Clone.
func TestWideObjectIndex(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{`)
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `"k%d": %d, `, i, i)
	}
	b.WriteString(`"k5": "again"}`)
	obj, err := DecodeObject([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if obj.idx == nil {
		t.Fatal("a 100-key object has no index")
	}
	if obj.Len() != 100 || obj.Keys()[5] != "k5" {
		t.Fatalf("len %d, keys %v", obj.Len(), obj.Keys()[:6])
	}
	if v, _ := obj.Get("k5"); v != "again" {
		t.Fatalf("k5 = %v, want the last value", v)
	}
	obj.Delete("k0")
	obj.Delete("missing")
	c := obj.Clone()
	c.Set("new", true)
	obj.Set("k99", "changed")
	for _, o := range []*Object{obj, c} {
		for i, m := range o.Members() {
			if got := o.index(m.Key); got != i {
				t.Fatalf("index(%s) = %d, want %d", m.Key, got, i)
			}
		}
		if o.Has("k0") {
			t.Fatal("deleted key still found")
		}
	}
	if c.Has("new") == obj.Has("new") {
		t.Fatal("a clone shares its index with the original")
	}
	if v, _ := c.Get("k99"); v == "changed" {
		t.Fatal("a clone sees the original's later change")
	}
}
