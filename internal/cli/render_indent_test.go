package cli

import (
	"bytes"
	"encoding/json"
	"testing"
)

var indentSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":{}}`, `[[],{},[{}]]`, `"x"`, `1.5e3`,
	`{"q":"a\"b\\","r":"{[,:]}"}`, `{"k\\":"\\\"","e":""}`, `[true,false,null]`, "{\"u\":\"é\\u2028\"}\n",
}

// TestIndentJSONIsJSONIndent: writeJSON's indenter writes what encoding/json's
// SetIndent("", "  ") wrote, which the --json goldens hold.
func TestIndentJSONIsJSONIndent(t *testing.T) {
	for _, s := range indentSeeds {
		checkIndent(t, []byte(s))
	}
}

func FuzzIndentJSON(f *testing.F) {
	for _, s := range indentSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if enc.Encode(v) != nil {
			return
		}
		checkIndent(t, buf.Bytes())
	})
}

func checkIndent(t *testing.T, compact []byte) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Indent(&want, compact, "", "  "); err != nil {
		t.Fatalf("json.Indent(%q): %v", compact, err)
	}
	if got := indentJSON(nil, compact, 0); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("indentJSON(%q) =\n%s\nwant\n%s", compact, got, want.Bytes())
	}
	// Inside two levels of a document (list --json's hooks).
	want.Reset()
	if err := json.Indent(&want, compact, "    ", "  "); err != nil {
		t.Fatal(err)
	}
	if got := indentJSON(nil, compact, 2); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("indentJSON(%q, depth 2) =\n%s\nwant\n%s", compact, got, want.Bytes())
	}
}
