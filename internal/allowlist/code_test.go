package allowlist

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/code"
)

// SPEC §23: an approval keeps its code beside §8.1's fields; reading it
// back gives the same files, and a not-pinnable one says why.
func TestEntryCodeRoundTrip(t *testing.T) {
	c := code.Code{Pinnable: true, Files: []code.File{{Path: "/usr/bin/jq", System: true}, {Path: "/h/x.sh", SHA256: strings.Repeat("a", 64)}}}
	e := NewEntry("pre_tool_call", "sh -c x", ViaAccept, Fingerprint{Err: ErrNoScript}, time.Unix(0, 0)).WithCode(c)
	l := &List{}
	l.Approve(e)
	l.Approve(NewEntry("on_session_start", "python3 -m m", ViaAccept, Fingerprint{Err: ErrNoScript}, time.Unix(0, 0)).WithCode(code.Code{Reason: "python3 -m loads code"}))
	data := l.encode()
	for _, want := range []string{`"code": [`, `"system": true`, `"sha256": "aaaa`, `"pinnable": false`, `"unpinnable_reason": "python3 -m loads code"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("encoded list lacks %s:\n%s", want, data)
		}
	}
	back, _, corrupt := decode(data, "x")
	if corrupt != "" {
		t.Fatal(corrupt)
	}
	got, _ := back.Find("pre_tool_call", "sh -c x")
	if !got.HasCode() || len(got.Code) != 2 || got.Code[0] != c.Files[0] || got.Code[1] != c.Files[1] || got.Unpinnable != "" {
		t.Errorf("code read back %+v (unpinnable %q)", got.Code, got.Unpinnable)
	}
	np, _ := back.Find("on_session_start", "python3 -m m")
	if np.Unpinnable != "python3 -m loads code" {
		t.Errorf("unpinnable read back %q", np.Unpinnable)
	}
	if string(back.encode()) != string(data) {
		t.Error("re-encoding changed the bytes")
	}
	// An agent's entry has no code: judged as before §23.
	old, _, _ := decode([]byte(`{"approvals": [{"event": "e", "command": "c", "approved_at": "x", "script_mtime_at_approval": null}]}`), "x")
	if e, _ := old.Find("e", "c"); e.HasCode() {
		t.Error("an entry without code reads as having one")
	}
}

// TestReadCodeAsUnmarshal: readCode reads every code list as
// json.Unmarshal into []code.File did (unmarshalCode): keys in any case,
// repeated keys, nulls, wrong types, escapes, invalid UTF-8, bad JSON.
func TestReadCodeAsUnmarshal(t *testing.T) {
	for _, raw := range []string{
		`null`, `[]`, ` [ ] `, `{}`, `"x"`, `1`, `[null]`, `[1]`, `["x"]`, `[[]]`,
		`[{"path":"/a","sha256":"ab"},{"path":"/bin/sh","system":true}]`,
		`[{"PATH":"/a","Sha256":"ab","SYSTEM":false}]`,
		`[{"path":"/a","path":"/b"}]`, `[{"path":"/a","path":null}]`, `[{"path":null}]`,
		`[{"path":1}]`, `[{"path":"/a","system":"yes"}]`, `[{"path":"/a","sha256":false}]`,
		`[{"path":"/a","other":[1,{"x":2}]}]`, `[{"path":"/\u00e9\"q\\\n"}]`, `[{"p\u0061th":"/a"}]`,
		`[{"path":"/a\xff"}]`, `[{"\xffpath":"/a"}]`, `[{"path":"/a"}`, `[{"path":"/a",}]`, `[{"path":NaN}]`,
		`[{"path":"/a"},null]`, `[{"path":""}]`, `[{"ſystem":true,"path":"/a"}]`,
	} {
		checkReadCode(t, raw)
	}
}

// checkReadCode compares readCode with json.Unmarshal on raw, as a part of
// a file not checked (valid false) and, when raw is valid JSON and UTF-8,
// of one checked whole.
func checkReadCode(t *testing.T, raw string) {
	t.Helper()
	want := unmarshalCode(json.RawMessage(raw))
	if got := readCode(json.RawMessage(raw), false); !reflect.DeepEqual(got, want) {
		t.Errorf("%q: read %#v, json.Unmarshal %#v", raw, got, want)
	}
	if json.Valid([]byte(raw)) && utf8.ValidString(raw) {
		if got := readCode(json.RawMessage(raw), true); !reflect.DeepEqual(got, want) {
			t.Errorf("%q, from a file checked valid: read %#v, json.Unmarshal %#v", raw, got, want)
		}
	}
}

// FuzzReadCode: readCode agrees with json.Unmarshal on any input.
func FuzzReadCode(f *testing.F) {
	f.Add(`[{"path":"/a","sha256":"ab"},{"path":"/bin/sh","system":true}]`)
	f.Add(`[{"PATH":"/a","path":null,"System":false}]`)
	f.Fuzz(func(t *testing.T, raw string) { checkReadCode(t, raw) })
}
