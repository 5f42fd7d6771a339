package pyjson

import (
	"bytes"
	"strings"
	"testing"
)

// fileOpts is the allowlist's layout, the one Canonical recognises.
var fileOpts = Options{Indent: 2, SortKeys: true, KeepNumbers: true}

// marshalAt is Marshal of v written at depth (its inner lines indented
// for it), as the items of a list inside an object are.
func marshalAt(v any, depth int, opts Options) []byte {
	var b bytes.Buffer
	w := writer{buf: &b, opts: opts}
	w.value(v, depth)
	return b.Bytes()
}

// TestCanonicalOfMarshal: what Marshal writes is recognised as it is, at
// every depth (else the allowlist's fast path would never be taken), and
// only at the depth it was written for.
func TestCanonicalOfMarshal(t *testing.T) {
	docs := []string{
		`{"approved_at": "2026-01-02T03:04:05Z", "command": "/opt/h.sh --x \"y\"", "event": "pre_tool_call", "script_mtime_at_approval": null,` +
			` "code": [{"path": "/opt/h.sh", "sha256": "ab"}, {"path": "/bin/sh", "sha256": "cd", "system": true}], "n": -0, "f": 1E2, "x": NaN}`,
		`{"a": [], "b": {}, "c": [[], {}, [1, [2, {"d": true}]]], "e": false, "t": "tab\u0009"}`,
		"{\"s\": \"é \\u0001 \\n\\t\\r\\b\\f \\\\ \\\" \u007f 😀\", \"u\": \"\\u001f\"}",
		`[1, "two", null]`,
		`"just a string"`,
		`{}`,
		`[]`,
		`-Infinity`,
	}
	for _, doc := range docs {
		v, err := Decode([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		for depth := range 4 {
			out := marshalAt(v, depth, fileOpts)
			if !Canonical(out, depth, fileOpts) {
				t.Errorf("depth %d: Marshal's own output not recognised:\n%s", depth, out)
			}
			if bytes.IndexByte(out, '\n') >= 0 && Canonical(out, depth+1, fileOpts) {
				t.Errorf("depth %d: recognised at depth %d too:\n%s", depth, depth+1, out)
			}
		}
	}
}

// TestCanonicalRefuses: each text differs from what Marshal writes for the
// value it decodes to (so writing it as it is would change the file's
// bytes from what an encode writes), and is refused.
func TestCanonicalRefuses(t *testing.T) {
	good := "{\n      \"a\": 1,\n      \"b\": [\n        \"x\"\n      ]\n    }"
	if !Canonical([]byte(good), 2, fileOpts) {
		t.Fatalf("the base case is not recognised:\n%s", good)
	}
	for _, src := range []string{
		strings.Replace(good, `"a"`, `"c"`, 1),                       // keys out of order
		strings.Replace(good, `"b"`, `"a"`, 1),                       // a repeated key
		strings.Replace(good, `": 1`, `":1`, 1),                      // no space after the colon
		strings.Replace(good, `1,`, `1 ,`, 1),                        // a space before the comma
		strings.Replace(good, "      \"a\"", "     \"a\"", 1),        // indented one short
		strings.Replace(good, "      \"a\"", "\t\"a\"", 1),           // a tab
		strings.Replace(good, "\n    }", "\n}", 1),                   // the close at depth 0
		strings.Replace(good, `"x"`, `"\/"`, 1),                      // an escape Python does not write
		strings.Replace(good, `"x"`, `"\u0041"`, 1),                  // a letter escaped
		strings.Replace(good, `"x"`, `"\u001F"`, 1),                  // upper-case hex
		strings.Replace(good, `"x"`, `"\u000a"`, 1),                  // \n in long form
		strings.Replace(good, `"x"`, `"\u00e9"`, 1),                  // non-ASCII escaped (ensure_ascii=False writes it)
		strings.Replace(good, "[\n        \"x\"\n      ]", "[ ]", 1), // an empty list spaced
		strings.Replace(good, "[\n        \"x\"\n      ]", "[\n      ]", 1),
		strings.Replace(good, `"a"`, `"\u0061"`, 1), // an escaped key
		good + "\n",
		" " + good,
		"{\n      \"a\": 1,\n    }", // a trailing comma
		"[\n      1\n    ,\n      2\n    ]",
	} {
		if Canonical([]byte(src), 2, fileOpts) {
			t.Errorf("recognised:\n%s", src)
		}
	}
	for _, opts := range []Options{{Indent: 2, SortKeys: true}, {Indent: 2, KeepNumbers: true}, {SortKeys: true, KeepNumbers: true}} {
		if Canonical([]byte(good), 2, opts) {
			t.Errorf("recognised for %+v, a layout it does not know", opts)
		}
	}
}

// FuzzCanonical: whatever text Canonical recognises at a depth is exactly
// what Marshal writes there for the value it decodes to.
func FuzzCanonical(f *testing.F) {
	f.Add([]byte("{\n      \"a\": 1,\n      \"b\": [\n        \"x\\u0001\"\n      ]\n    }"), uint8(2))
	f.Add([]byte("[\n  NaN,\n  -0,\n  1e5\n]"), uint8(0))
	f.Add([]byte(`"\u00e9"`), uint8(1))
	f.Fuzz(func(t *testing.T, src []byte, d uint8) {
		depth := int(d % 8)
		v, err := Decode(src)
		if err != nil || !Canonical(src, depth, fileOpts) {
			return
		}
		if out := marshalAt(v, depth, fileOpts); !bytes.Equal(out, src) {
			t.Fatalf("recognised at depth %d but Marshal writes it otherwise:\n%q\n%q", depth, src, out)
		}
	})
}

// BenchmarkCanonical: an allowlist entry with its code, as the file holds
// it (protect --all of 100,000 hooks checks 300,000 of them).
func BenchmarkCanonical(b *testing.B) {
	v, err := Decode([]byte(`{"approved_at": "2026-12-01T00:00:00Z", "approved_via": "protect", "command": "/usr/local/bin/hermes-guard --event pre_tool_call -- /opt/hooks/h.sh 0000001",` +
		` "event": "pre_tool_call", "script_mtime_at_approval": "2026-12-01T00:00:00.046723Z", "script_sha256_at_approval": "306c6ca7407560340797866e077e053627ad409277d1b9da58106fce4cf717cb",` +
		` "code": [{"path": "/opt/hooks/h.sh", "sha256": "306c6ca7407560340797866e077e053627ad409277d1b9da58106fce4cf717cb"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	src := marshalAt(v, 2, fileOpts)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if !Canonical(src, 2, fileOpts) {
			b.Fatal("not recognised")
		}
	}
}
