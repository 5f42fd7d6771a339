package allowlist

import (
	"strings"
	"testing"
)

func TestRemoveKeepsMalformedItemsInPlace(t *testing.T) {
	l, _, corrupt := decode([]byte(`{"approvals": [
  {"event": "a", "command": "/1"},
  "odd",
  {"event": "a", "command": "/2"},
  {"event": "b", "command": "/3"}
]}`), "test")
	if corrupt != "" {
		t.Fatal(corrupt)
	}
	gone := l.Remove(func(e Entry) bool { return e.Command != "/2" })
	if len(gone) != 2 || gone[0].Command != "/1" || gone[1].Command != "/3" {
		t.Fatalf("Remove returned %+v, want /1 and /3 in file order", gone)
	}
	if _, ok := l.Find("a", "/2"); !ok || len(l.Approvals) != 1 {
		t.Fatalf("left %+v, want only /2", l.Approvals)
	}
	if out := string(l.encode()); !strings.Contains(out, `"odd",`) || strings.Index(out, `"odd"`) > strings.Index(out, `"/2"`) {
		t.Errorf("the malformed item moved or went:\n%s", out)
	}
	if gone := l.Remove(func(Entry) bool { return false }); gone != nil {
		t.Errorf("Remove of nothing returned %+v", gone)
	}
}
