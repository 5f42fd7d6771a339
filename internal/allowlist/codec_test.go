package allowlist

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// compact re-renders JSON compactly, keys in the order given, for short
// comparisons.
func compact(t testing.TB, data []byte) string {
	t.Helper()
	v, err := pyjson.Decode(data)
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return string(pyjson.Marshal(v, pyjson.Options{Compact: true}))
}

// pythonStyle is a file as the agent writes it: json.dumps(indent=2,
// sort_keys=True, ensure_ascii=False), no trailing newline. It holds
// unknown keys at both levels, nested values and numbers Python would
// not have produced (1.50) that must survive as written.
const pythonStyle = `{
  "approvals": [
    {
      "approved_at": "2026-11-29T10:11:12.345678Z",
      "command": "~/.hermes/agent-hooks/guard.sh --strict \"é\" 'x'",
      "event": "pre_tool_call",
      "extra": {
        "list": [
          1.50,
          12345678901234567890,
          -0.0,
          1e400,
          true,
          null
        ],
        "nested": {}
      },
      "script_mtime_at_approval": "2026-11-28T09:00:00Z"
    },
    {
      "approved_at": 17,
      "approved_via": "accept",
      "command": "日本語.sh",
      "event": "post_tool_call",
      "script_mtime_at_approval": 1795856400.5,
      "script_sha256_at_approval": null
    }
  ],
  "future": [
    "kept"
  ],
  "version": 2
}`

func TestRoundTripIsByteIdentical(t *testing.T) {
	l := mustDecode(t, pythonStyle)
	if got := string(l.encode()); got != pythonStyle {
		t.Fatalf("rewrite differs:\n%s", got)
	}
	e, ok := l.Find("post_tool_call", "日本語.sh")
	if !ok || e.ApprovedAt != "" || e.ScriptMtime == nil || *e.ScriptMtime != "1795856400.5" || e.ApprovedVia != ViaAccept {
		t.Fatalf("second entry read as %+v", e)
	}
}

// A file holding NaN and the infinities (which the agent's JSON reader
// accepts and writes) is read, and rewritten byte for byte.
func TestRoundTripNonFinite(t *testing.T) {
	const in = `{
  "approvals": [
    {
      "approved_at": "2026-11-29T10:11:12Z",
      "command": "guard.sh",
      "event": "pre_tool_call",
      "score": NaN,
      "script_mtime_at_approval": "2026-11-28T09:00:00Z"
    }
  ],
  "limits": [
    Infinity,
    -Infinity
  ]
}`
	l := mustDecode(t, in)
	if _, ok := l.Find("pre_tool_call", "guard.sh"); !ok {
		t.Fatalf("entry not read: %+v", l.Approvals)
	}
	if got := string(l.encode()); got != in {
		t.Fatalf("rewrite differs:\n%s", got)
	}
	l.Approve(Entry{Event: "on_session_start", Command: "new.sh", ApprovedAt: "2026-11-30T00:00:00Z"})
	if out := string(l.encode()); !strings.Contains(out, `"score": NaN,`) || !strings.Contains(out, "Infinity,\n    -Infinity") {
		t.Errorf("rewrite after a change lost the non-finite numbers:\n%s", out)
	}
}

func TestRoundTripAfterChangesKeepsUnknowns(t *testing.T) {
	l := mustDecode(t, pythonStyle)
	l.Approve(Entry{Event: "on_session_start", Command: "new.sh", ApprovedAt: "2026-11-30T00:00:00Z"})
	// Change one known field of a read entry: only that key is rewritten.
	e, _ := l.Find("post_tool_call", "日本語.sh")
	e.ScriptSHA256 = strings.Repeat("0", 64)
	l.Approve(e)

	out := string(l.encode())
	for _, want := range []string{
		`"future": [` + "\n" + `    "kept"`,
		`"version": 2`,
		`1.50,`, `12345678901234567890,`, `-0.0,`, `1e400,`,
		`"nested": {}`,
		`"approved_at": 17,`,
		`"script_mtime_at_approval": 1795856400.5,`,
		`"script_sha256_at_approval": "` + strings.Repeat("0", 64) + `"`,
		`"command": "~/.hermes/agent-hooks/guard.sh --strict \"é\" 'x'"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rewrite lost %s:\n%s", want, out)
		}
	}
	if got := commands(mustDecode(t, out)); got != "pre_tool_call:~/.hermes/agent-hooks/guard.sh --strict \"é\" 'x' on_session_start:new.sh post_tool_call:日本語.sh" {
		t.Errorf("order after changes: %s", got)
	}
	if strings.HasSuffix(out, "\n") {
		t.Error("trailing newline")
	}
}

func TestDecodeTolerance(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		corrupt  string // substring of the reason, "" = usable
		entries  int
	}{
		{"bom", "\uFEFF" + `{"approvals": [{"event": "e", "command": "c"}]}`, "", 1},
		{"no approvals key", `{"other": 1}`, "", 0},
		{"empty list", `{"approvals": []}`, "", 0},
		{"empty file", ``, "not valid JSON", 0},
		{"truncated", `{"approvals": [{"event": "e"`, "not valid JSON", 0},
		{"trailing garbage", `{"approvals": []} x`, "not valid JSON", 0},
		// The agent's reader takes NaN and the infinities: so do we.
		{"nan", `{"approvals": [{"event": "e", "command": "c", "x": NaN}], "n": -Infinity}`, "", 1},
		{"nan misspelt", `{"approvals": [], "n": nan}`, "not valid JSON", 0},
		{"list", `[{"event": "e", "command": "c"}]`, "not a JSON object (it is a list)", 0},
		{"string", `"approvals"`, "not a JSON object (it is a string)", 0},
		{"null", `null`, "not a JSON object (it is null)", 0},
		{"approvals object", `{"approvals": {"event": "e"}}`, `"approvals" is an object, not a list`, 0},
		{"approvals null", `{"approvals": null}`, `"approvals" is null, not a list`, 0},
		{"not utf-8", "{\"approvals\": [{\"event\": \"e\", \"command\": \"\xff\"}]}", "not valid UTF-8", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, _, corrupt := decode([]byte(tc.in), "f")
			if (tc.corrupt == "") != (corrupt == "") || !strings.Contains(corrupt, tc.corrupt) {
				t.Errorf("corrupt = %q, want %q", corrupt, tc.corrupt)
			}
			if len(l.Approvals) != tc.entries {
				t.Errorf("%d entries, want %d", len(l.Approvals), tc.entries)
			}
		})
	}
}

func TestEncodeEmptyAndNew(t *testing.T) {
	if got := string((&List{}).encode()); got != `{
  "approvals": []
}` {
		t.Errorf("empty list: %q", got)
	}
	// A BOM is not written back: the agent reads plain UTF-8.
	l := mustDecode(t, "\uFEFF{\"approvals\": []}")
	if got := l.encode(); got[0] != '{' {
		t.Errorf("BOM written back: %q", got)
	}
}

// The fast reader must see keys the way Python does: escapes decoded,
// exact case, the last of repeated keys.
func TestReaderKeysLikePython(t *testing.T) {
	in := `{"approvals": [{"ev\u0065nt": "e", "command": "c\\d", "EVENT": "x"},
	{"event": "a", "command": "b", "command": 5},
	{"event" : "z" , "command":"\"}\"]" , "approved_at": "1", "approved_at": 2}],
	"approvals\u0000": 1}`
	l, warnings, corrupt := decode([]byte(in), "f")
	if corrupt != "" || len(warnings) != 1 {
		t.Fatalf("corrupt %q warnings %q", corrupt, warnings)
	}
	if got, want := commands(l), `e:c\d z:"}"]`; got != want {
		t.Errorf("entries %s, want %s", got, want)
	}
	if e, _ := l.Find("z", `"}"]`); e.ApprovedAt != "" {
		t.Errorf("approved_at %q: the last value (a number) wins", e.ApprovedAt)
	}
	if got := compact(t, l.encode()); !strings.Contains(got, `"approvals\u0000":1`) {
		t.Errorf("escaped top-level key lost: %s", got)
	}
}
