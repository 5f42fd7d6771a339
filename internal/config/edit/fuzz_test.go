package edit

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"gopkg.in/yaml.v3"
)

// FuzzAppendRemove: adding an entry then removing it again gives a file
// that means what the original meant (an emptied list may read as null),
// and neither edit panics or returns a file that does not parse.
func FuzzAppendRemove(f *testing.F) {
	for _, in := range goldenInputs(f) {
		f.Add(in, "./x.sh --flag")
	}
	f.Add([]byte("hooks:\n  pre_tool_call:\n    - command: a\n"), "it's: [x] # y")
	f.Fuzz(func(t *testing.T, src []byte, command string) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		path := []string{"hooks", "pre_tool_call"}
		added, err := d.Append(path, []Field{{"command", command}, {"timeout", 7}})
		if err != nil {
			wantEditError(t, err)
			return
		}
		d2, err := Parse(added)
		if err != nil {
			t.Fatalf("appended file does not parse: %v\n%s", err, added)
		}
		n := len(d2.Lookup(path).Content)
		back, count, err := d2.Remove([]string{"hooks"}, func(key string, i int, _ *yaml.Node) bool {
			return key == "pre_tool_call" && i == n-1
		})
		if err != nil {
			var u *UnsafeError
			if errors.As(err, &u) {
				return
			}
			t.Fatalf("remove: %v\n%s", err, added)
		}
		if count != 1 {
			t.Fatalf("removed %d entries, want 1", count)
		}
		var orig, got any
		if yaml.Unmarshal(src, &orig) != nil {
			// Not a document anyone can read (`<<:` merging a null, say:
			// yaml.v3 and PyYAML both refuse it): no meaning to keep.
			return
		}
		if yaml.Unmarshal(back, &got) != nil {
			t.Fatalf("does not decode:\n%s", back)
		}
		if !sameModuloEmpty(orig, got) {
			t.Fatalf("add then remove changed the meaning:\n--- before\n%s\n--- after\n%s", src, back)
		}
	})
}

// sameModuloEmpty: equal, except that hooks / hooks.pre_tool_call may have
// gone from absent or empty to empty.
func sameModuloEmpty(a, b any) bool {
	if sameValue(a, b) {
		return true
	}
	am, _ := stringKeyed(a)
	bm, ok := stringKeyed(b)
	if !ok {
		return false
	}
	if am == nil {
		am = map[string]any{}
	}
	ah, _ := stringKeyed(am["hooks"])
	bh, ok := stringKeyed(bm["hooks"])
	if !ok {
		return false
	}
	if ah == nil {
		ah = map[string]any{}
	}
	want := map[string]any{}
	for k, v := range ah {
		want[k] = v
	}
	if v, ok := want["pre_tool_call"]; !ok || v == nil {
		want["pre_tool_call"] = emptyMarker{}
	} else if l, ok := v.([]any); ok && len(l) == 0 {
		want["pre_tool_call"] = emptyMarker{}
	}
	wantTop, gotTop := map[string]any{}, map[string]any{}
	for k, v := range am {
		wantTop[k] = v
	}
	for k, v := range bm {
		gotTop[k] = v
	}
	wantTop["hooks"], gotTop["hooks"] = want, bh
	return sameValue(wantTop, gotTop)
}

// stringKeyed is a mapping with its keys as strings: yaml.v3
// decodes a mapping with any non-string key (0:) as map[any]any, and the
// hooks: an append adds sits beside such keys. ok is false for anything
// else, or when two keys would read the same.
func stringKeyed(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, v := range m {
			ks := fmt.Sprint(k)
			if _, dup := out[ks]; dup {
				return nil, false
			}
			out[ks] = v
		}
		return out, true
	}
	return nil, false
}

// FuzzRemove: removing the first item of every list under hooks never
// panics, and either gives a file that parses with exactly those items
// gone (checked inside Remove) or says why it will not.
func FuzzRemove(f *testing.F) {
	for _, in := range goldenInputs(f) {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse(src)
		if err != nil {
			return
		}
		out, n, err := d.Remove([]string{"hooks"}, func(_ string, i int, _ *yaml.Node) bool { return i == 0 })
		if err != nil {
			wantEditError(t, err)
			return
		}
		if n == 0 && string(out) != string(src) {
			t.Fatalf("nothing removed but the file changed")
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("result does not parse: %v", err)
		}
	})
}

// goldenInputs are the in.yaml files of the golden tests: the fuzzers'
// seeds.
func goldenInputs(f *testing.F) [][]byte {
	files, _ := filepath.Glob("testdata/*.txtar")
	var out [][]byte
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range ar.Files {
			if fl.Name == "in.yaml" {
				out = append(out, fl.Data)
			}
		}
	}
	return out
}

// wantEditError fails unless err is one of the errors an edit may give.
func wantEditError(t *testing.T, err error) {
	t.Helper()
	var r *RefusedError
	var u *UnsafeError
	if !errors.As(err, &r) && !errors.As(err, &u) {
		t.Fatalf("unexpected error type %T: %v", err, err)
	}
}
