package allowlist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/code"
)

func TestFormatTime(t *testing.T) {
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 11, 29, 10, 11, 12, 345678000, time.UTC), "2026-11-29T10:11:12.345678Z"},
		{time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC), "2026-11-28T09:00:00Z"},
		{time.Date(2026, 11, 28, 9, 0, 0, 999, time.UTC), "2026-11-28T09:00:00Z"},                                // below a µs
		{time.Date(2026, 11, 28, 9, 0, 0, 1999, time.UTC), "2026-11-28T09:00:00.000001Z"},                        // truncated
		{time.Date(2026, 11, 28, 10, 0, 0, 500000000, time.FixedZone("x", 3600)), "2026-11-28T09:00:00.500000Z"}, // to UTC
	} {
		if got := FormatTime(tc.in); got != tc.want {
			t.Errorf("FormatTime(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2026, 11, 28, 9, 0, 0, 123456000, time.UTC)
	for _, in := range []string{
		"2026-11-28T09:00:00.123456Z",
		"2026-11-28T09:00:00.123456+00:00",
		"2026-11-28T10:00:00.123456+01:00",
		"2026-11-28T09:00:00.123456",
		"2026-11-28 09:00:00.123456+00:00",
		"1795856400.123456",
	} {
		got, ok := ParseTime(in)
		if !ok || got.Sub(want).Abs() >= time.Microsecond {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "yesterday", "NaN", "1e300", "2026-13-01T00:00:00Z"} {
		if got, ok := ParseTime(in); ok {
			t.Errorf("ParseTime(%q) = %v, want not ok", in, got)
		}
	}
}

func TestNewEntry(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 11, 12, 345678901, time.UTC)
	mtime := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	sha := strings.Repeat("ab", 32)

	e := NewEntry("pre_tool_call", "guard.sh", ViaAccept, Fingerprint{SHA256: sha, Mtime: mtime}, now)
	want := `{"approved_at": "2026-11-29T10:11:12.345678Z", "approved_via": "accept", "command": "guard.sh", "event": "pre_tool_call", "script_mtime_at_approval": "2026-11-28T09:00:00Z", "script_sha256_at_approval": "` + sha + `"}`
	if got := e.object().String(); got != want {
		t.Errorf("readable script:\n got %s\nwant %s", got, want)
	}
	if !e.Pinned() {
		t.Error("entry with a sha256 is not pinned")
	}

	// Missing script: mtime and sha null, the keys still there.
	e = NewEntry("on_session_start", "gone.sh", "", Fingerprint{Err: ErrNoScript}, now)
	want = `{"approved_at": "2026-11-29T10:11:12.345678Z", "command": "gone.sh", "event": "on_session_start", "script_mtime_at_approval": null, "script_sha256_at_approval": null}`
	if got := e.object().String(); got != want {
		t.Errorf("missing script:\n got %s\nwant %s", got, want)
	}

	// Stat-able but unreadable: mtime kept, sha null.
	e = NewEntry("e", "c", ViaEnv, Fingerprint{Mtime: mtime, Err: ErrNoScript, SHA256: sha}, now)
	if e.ScriptMtime == nil || *e.ScriptMtime != "2026-11-28T09:00:00Z" || e.ScriptSHA256 != "" {
		t.Errorf("unreadable script: mtime %v sha %q", e.ScriptMtime, e.ScriptSHA256)
	}
}

func mustDecode(t testing.TB, in string) *List {
	t.Helper()
	l, _, corrupt := decode([]byte(in), "test.json")
	if corrupt != "" {
		t.Fatalf("decode: %s", corrupt)
	}
	return l
}

func commands(l *List) string {
	var s []string
	for _, e := range l.Approvals {
		s = append(s, e.Event+":"+e.Command)
	}
	return strings.Join(s, " ")
}

func TestFindApproveRevoke(t *testing.T) {
	in := `{"approvals": [
		{"event": "a", "command": "x.sh"},
		{"event": "b", "command": "x.sh"},
		{"event": "a", "command": "y.sh", "approved_at": "old"},
		{"event": "a", "command": "X.sh"}]}`

	l := mustDecode(t, in)
	for _, tc := range []struct {
		event, command string
		found          bool
	}{
		{"a", "x.sh", true}, {"b", "x.sh", true}, {"a", "X.sh", true},
		{"b", "y.sh", false}, {"a", "x.sh ", false}, {"A", "x.sh", false}, {"", "", false},
	} {
		e, ok := l.Find(tc.event, tc.command)
		if ok != tc.found || (ok && (e.Event != tc.event || e.Command != tc.command)) {
			t.Errorf("Find(%q, %q) = %+v, %v", tc.event, tc.command, e, ok)
		}
	}

	l.Approve(Entry{Event: "a", Command: "y.sh", ApprovedAt: "new"})
	if got, want := commands(l), "a:x.sh b:x.sh a:X.sh a:y.sh"; got != want {
		t.Errorf("after Approve: %s, want %s", got, want)
	}
	if e, _ := l.Find("a", "y.sh"); e.ApprovedAt != "new" {
		t.Errorf("Find after Approve = %+v", e)
	}
	if n := l.Revoke("x.sh"); n != 2 {
		t.Errorf("Revoke(x.sh) = %d, want 2", n)
	}
	if n := l.Revoke("x.sh"); n != 0 {
		t.Errorf("second Revoke(x.sh) = %d, want 0", n)
	}
	if got, want := commands(l), "a:X.sh a:y.sh"; got != want {
		t.Errorf("after Revoke: %s, want %s", got, want)
	}
	if _, ok := l.Find("a", "x.sh"); ok {
		t.Error("revoked entry still found")
	}
}

// The agent stops at the first entry for a pair: its approved_at, mtime and
// sha256 are the ones that count (SPEC §14).
func TestDuplicatePairFirstWinsAndApproveRemovesAll(t *testing.T) {
	l := mustDecode(t, `{"approvals": [
		{"event": "a", "command": "c", "approved_at": "1", "script_mtime_at_approval": "2026-01-01T00:00:00Z", "script_sha256_at_approval": "aa"},
		{"event": "b", "command": "c", "approved_at": "x"},
		{"event": "a", "command": "c", "approved_at": "2", "script_mtime_at_approval": "2026-02-02T00:00:00Z", "script_sha256_at_approval": "bb"}]}`)
	e, _ := l.Find("a", "c")
	if e.ApprovedAt != "1" || e.ScriptSHA256 != "aa" || *e.ScriptMtime != "2026-01-01T00:00:00Z" {
		t.Errorf("Find returned %+v, want the first entry", e)
	}
	if e, _ := l.Find("b", "c"); e.ApprovedAt != "x" {
		t.Errorf("Find(b) returned %q", e.ApprovedAt)
	}
	l.Revoke("zzz") // a no-op change must not disturb the index
	l.Approve(Entry{Event: "a", Command: "c", ApprovedAt: "3"})
	if len(l.Approvals) != 2 || l.Approvals[1].ApprovedAt != "3" || l.Approvals[0].Event != "b" {
		t.Errorf("after Approve: %+v", l.Approvals)
	}
	if e, _ := l.Find("a", "c"); e.ApprovedAt != "3" {
		t.Errorf("after Approve Find returned %q", e.ApprovedAt)
	}
}

func TestDuplicatePairFirstWinsAfterAppend(t *testing.T) {
	l := mustDecode(t, `{"approvals": [{"event": "a", "command": "c", "approved_at": "1"}, {"event": "a", "command": "c", "approved_at": "2"}]}`)
	if e, _ := l.Find("a", "c"); e.ApprovedAt != "1" {
		t.Errorf("Find returned %q, want the first entry", e.ApprovedAt)
	}
	l.Approve(Entry{Event: "a", Command: "c", ApprovedAt: "3"})
	if len(l.Approvals) != 1 || l.Approvals[0].ApprovedAt != "3" {
		t.Errorf("after Approve: %+v", l.Approvals)
	}
}

func TestApproveCarriesUnknownKeys(t *testing.T) {
	l := mustDecode(t, `{"approvals": [{"event": "a", "command": "c", "approved_at": "1", "note": {"by": "ops"}, "approved_via": "env"}]}`)
	l.Approve(Entry{Event: "a", Command: "c", ApprovedAt: "2"})
	got := l.Approvals[0].object().String()
	want := `{"note": {"by": "ops"}, "approved_at": "2", "command": "c", "event": "a", "script_mtime_at_approval": null, "script_sha256_at_approval": null}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestMalformedItemsKeptInPlace(t *testing.T) {
	in := `{"approvals": ["junk", {"event": "a", "command": "x"}, {"event": 1, "command": "y"}, {"event": "b", "command": "y"}, {"command": "x"}, null]}`
	l, warnings, _ := decode([]byte(in), "/h/allow.json")
	if len(warnings) != 4 || !strings.Contains(warnings[0], "/h/allow.json") || !strings.Contains(warnings[0], "approvals[0]") {
		t.Fatalf("warnings: %q", warnings)
	}
	if got := commands(l); got != "a:x b:y" {
		t.Fatalf("entries: %s", got)
	}
	if _, ok := l.Find("", "x"); ok {
		t.Error("an item without event matched")
	}
	if n := l.Revoke("x"); n != 1 {
		t.Errorf("Revoke(x) = %d, want 1 (the malformed item stays)", n)
	}
	l.Approve(Entry{Event: "c", Command: "z", ApprovedAt: "t"})
	got := compact(t, l.encode())
	want := `{"approvals":["junk",{"command":"y","event":1},{"command":"y","event":"b"},{"command":"x"},null,{"approved_at":"t","command":"z","event":"c","script_mtime_at_approval":null,"script_sha256_at_approval":null}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// Approving into a list must keep Find right whether it extends the index
// or has to rebuild it.
func TestIndexFollowsChanges(t *testing.T) {
	l := &List{}
	for i := range 100 {
		l.Approve(Entry{Event: "e", Command: fmt.Sprint(i)})
		j := i / 2
		if e, ok := l.Find("e", fmt.Sprint(j)); !ok || e.Command != fmt.Sprint(j) {
			t.Fatalf("after %d approvals Find(%d) = %+v, %v", i+1, j, e, ok)
		}
	}
	l.Approve(Entry{Event: "e", Command: "0", ApprovedAt: "again"}) // moves to the end
	l.Approve(Entry{Event: "e", Command: "new"})
	for _, c := range []string{"0", "1", "99", "new"} {
		if e, ok := l.Find("e", c); !ok || e.Command != c {
			t.Errorf("Find(%s) = %+v, %v", c, e, ok)
		}
	}
	if e, _ := l.Find("e", "0"); e.ApprovedAt != "again" || l.Approvals[len(l.Approvals)-2].Command != "0" {
		t.Errorf("re-approval not moved to the end: %+v", e)
	}
	l.Revoke("1")
	if _, ok := l.Find("e", "1"); ok || len(l.Approvals) != 100 {
		t.Errorf("after Revoke: %d entries", len(l.Approvals))
	}
	if e, ok := l.Find("e", "50"); !ok || e.Command != "50" {
		t.Errorf("Find after Revoke shifted: %+v", e)
	}
}

func BenchmarkApprove1000Into10k(b *testing.B) {
	base := &List{}
	for i := range 10000 {
		base.Approve(Entry{Event: "e", Command: fmt.Sprint("old", i)})
	}
	for b.Loop() {
		l := &List{Approvals: append([]Entry(nil), base.Approvals...)}
		for i := range 1000 {
			l.Approve(Entry{Event: "e", Command: fmt.Sprint("new", i)})
		}
	}
}

// encoded makes entry i of l decoded and encoded again, never written as
// read: what Entry.written must agree with.
func encoded(l *List) func(i int) any {
	return func(i int) any { return l.Approvals[i].object() }
}

// TestWrittenAsRead: an entry read from a file this package wrote, and not
// changed, is written as its text; changed, or read from a file laid out
// otherwise, it is encoded; and both write what encoding writes.
func TestWrittenAsRead(t *testing.T) {
	l := &List{}
	l.ApproveAll([]Entry{
		{Event: "pre_tool_call", Command: "/opt/a.sh", ApprovedAt: "2026-01-01T00:00:00Z", ScriptSHA256: "ab", Code: []code.File{{Path: "/opt/a.sh", SHA256: "ab"}}},
		{Event: "pre_tool_call", Command: "/opt/b.sh \"é\"\t", ApprovedAt: "2026-01-01T00:00:00Z"},
	})
	file := l.encode()
	read, _, corrupt := decode(file, "t.json")
	if corrupt != "" {
		t.Fatal(corrupt)
	}
	for i, e := range read.Approvals {
		if _, ok := e.written().(json.RawMessage); !ok {
			t.Errorf("entry %d, unchanged, is encoded again", i)
		}
	}
	read.Approvals[1].ApprovedVia = ViaProtect
	if _, ok := read.Approvals[1].written().(json.RawMessage); ok {
		t.Error("a changed entry is written as it was read")
	}
	if fast, slow := read.encode(), read.encodeWith(encoded(read), nil, 0); !bytes.Equal(fast, slow) {
		t.Fatalf("written as read:\n%s\nencoded:\n%s", fast, slow)
	}
	// Every line indented two more: read, unchanged, but not as written here.
	wide, _, _ := decode(bytes.ReplaceAll(file, []byte("\n"), []byte("\n  ")), "t.json")
	if _, ok := wide.Approvals[0].written().(json.RawMessage); ok {
		t.Error("an entry laid out otherwise is written as it was read")
	}
	if !bytes.Equal(wide.encode(), file) {
		t.Errorf("the wider file does not rewrite to the file:\n%s", wide.encode())
	}
}

// TestUnchangedFromSeesEveryField: a change to any field of an entry read
// makes it changed (a field added to Entry but not to unchangedFrom would
// be written back as it was read, the change lost).
func TestUnchangedFromSeesEveryField(t *testing.T) {
	mtime := "1700000000.5"
	read := Entry{Event: "e", Command: "c", ApprovedAt: "a", ApprovedVia: "v", ScriptMtime: &mtime, ScriptSHA256: "s",
		Code: []code.File{{Path: "/p", SHA256: "h"}}, Unpinnable: "u"}
	if !read.unchangedFrom(read) {
		t.Fatal("an entry differs from itself")
	}
	typ := reflect.TypeOf(read)
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		e := read
		e.Code = slices.Clone(read.Code)
		v := reflect.ValueOf(&e).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Pointer:
			other := "1"
			v.Set(reflect.ValueOf(&other))
		case reflect.Slice:
			e.Code[0].SHA256 = "other"
		default:
			t.Fatalf("field %s: a kind this test cannot change (%s); teach it and unchangedFrom", f.Name, v.Kind())
		}
		if e.unchangedFrom(read) {
			t.Errorf("a change of %s is not seen", f.Name)
		}
	}
}
