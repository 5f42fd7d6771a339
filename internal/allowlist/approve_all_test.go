package allowlist

import (
	"strings"
	"testing"
)

// ApproveAll is Approve of each entry in turn: a replaced entry's unknown
// keys are kept, replaced entries move to the end, new ones are appended;
// RevokeKeys removes exactly the pairs given.
func TestApproveAllAndRevokeKeys(t *testing.T) {
	l, _, corrupt := decode([]byte(`{"approvals": [
  {"event": "a", "command": "/1", "x_note": "kept"},
  {"event": "a", "command": "/2"},
  {"event": "b", "command": "/1"}
]}`), "test")
	if corrupt != "" {
		t.Fatal(corrupt)
	}
	l.ApproveAll([]Entry{{Event: "a", Command: "/1", ApprovedVia: ViaProtect}, {Event: "c", Command: "/9", ApprovedVia: ViaProtect}})
	var got []string
	for _, e := range l.Approvals {
		got = append(got, e.Event+e.Command)
	}
	if strings.Join(got, " ") != "a/2 b/1 a/1 c/9" {
		t.Fatalf("order after ApproveAll: %v, want a/2 b/1 a/1 c/9", got)
	}
	if e, ok := l.Find("a", "/1"); !ok || e.ApprovedVia != ViaProtect {
		t.Fatalf("a /1: %+v %v", e, ok)
	}
	if out := string(l.encode()); !strings.Contains(out, `"x_note": "kept"`) {
		t.Errorf("the replaced entry's unknown key was lost:\n%s", out)
	}
	if n := l.RevokeKeys(map[Key]bool{{"a", "/1"}: true, {"b", "/1"}: true, {"z", "/0"}: true}); n != 2 {
		t.Fatalf("RevokeKeys removed %d, want 2", n)
	}
	if _, ok := l.Find("a", "/2"); !ok || len(l.Approvals) != 2 {
		t.Errorf("left %+v, want a /2 and c /9", l.Approvals)
	}
	if n := l.RevokeKeys(nil); n != 0 {
		t.Errorf("RevokeKeys(nil) removed %d", n)
	}
}
