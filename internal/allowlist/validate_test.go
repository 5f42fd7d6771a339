package allowlist

import (
	"encoding/json"
	"strings"
	"testing"
)

var validCases = []string{
	``, ` `, `{}`, `[]`, `{"a":1}`, `{"a":1,}`, `[1,]`, `{"a" 1}`, `{a:1}`, `01`, `-0`, `-`, `1.`, `1.5e`, `1e+5`,
	`1E-05`, `.5`, `+1`, `"\u00e9"`, `"\u00g9"`, `"\x"`, "\"a\tb\"", `"\/"`, `true`, `tru`, `nul`, `null `,
	`NaN`, `Infinity`, `{"a":[1,{"b":null}],"c":"d"}`, `{"a":1} {}`, `[1 2]`, `{"a":1 "b":2}`, "\uFEFF{}",
	`{"approvals": [{"event": "e", "command": "c"}], "approvals": {}}`, `"unterminated`, `[`, `{"a":`,
	strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth),
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	// Many escapes before one closing quote (once quadratic), escaped
	// quotes among them, and runs of backslashes before a quote.
	`"` + strings.Repeat(`\n`, 5000) + `"`, `"` + strings.Repeat(`\n\"`, 2000) + `x"`, `"` + strings.Repeat(`\\`, 3000) + `"`,
	`"` + strings.Repeat(`\\`, 3000) + `\"`, `"` + strings.Repeat(`\u00e9`, 2000) + `\u00"`,
}

// TestValidJSONIsEncodingJSONValid: the one-pass reader accepts exactly
// what json.Valid, which it replaced, accepts.
func TestValidJSONIsEncodingJSONValid(t *testing.T) {
	for _, c := range validCases {
		if got, want := validJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("validJSON(%.40q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", data, got, want)
		}
	})
}
