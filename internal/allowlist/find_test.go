package allowlist

import (
	"os"
	"path/filepath"
	"testing"
)

// FindFirst finds what Read then a scan for the first match find, on
// every shape of file the slow path knows, and it never finds an entry
// the slow path would not.
func TestFindFirstAgreesWithRead(t *testing.T) {
	files := map[string]string{
		"usual":            `{"approvals": [{"event": "e", "command": "/a.sh"}, {"event": "e", "command": "/b.sh", "script_sha256_at_approval": "ab"}]}`,
		"first of two":     `{"approvals": [{"event": "e", "command": "/b.sh", "approved_via": "one"}, {"event": "e", "command": "/b.sh", "approved_via": "two"}]}`,
		"other event":      `{"approvals": [{"event": "f", "command": "/b.sh"}]}`,
		"escapes":          `{"approvals": [{"event": "e", "command": "\/b\u002esh", "x": "q\"}{,"}]}`,
		"nested":           `{"approvals": [{"event": "e", "extra": {"command": "/b.sh", "event": "e"}, "command": "/c.sh"}, {"command": "/b.sh", "n": [1, {"a": "]"}], "event": "e", "m": 1.5e3, "t": true}]}`,
		"last approvals":   `{"approvals": [{"event": "e", "command": "/b.sh", "approved_via": "one"}], "approvals": [{"event": "e", "command": "/b.sh", "approved_via": "two"}]}`,
		"not a list":       `{"approvals": {"event": "e", "command": "/b.sh"}}`,
		"odd item":         `{"approvals": [3, {"event": "e", "command": "/b.sh"}]}`,
		"item without cmd": `{"approvals": [{"event": "e"}, {"event": "e", "command": "/b.sh"}]}`,
		"truncated":        `{"approvals": [{"event": "e", "command": "/b.sh"}`,
		"trailing junk":    `{"approvals": [{"event": "e", "command": "/b.sh"}]} x`,
		"not an object":    `[{"event": "e", "command": "/b.sh"}]`,
		"empty object":     `{}`,
		"BOM":              "\uFEFF" + `{"approvals": [{"event": "e", "command": "/b.sh"}]}`,
		"other members":    `{"version": 1, "meta": {"approvals": []}, "approvals": [{"event": "e", "command": "/b.sh"}], "z": [null]}`,
		"not UTF-8":        "{\"approvals\": [{\"event\": \"e\", \"command\": \"/b.sh\", \"x\": \"\xff\"}]}",
	}
	match := func(c string) bool { return c == "/b.sh" }
	for name, text := range files {
		t.Run(name, func(t *testing.T) {
			hh := t.TempDir()
			if err := os.WriteFile(filepath.Join(hh, FileName), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			s := Open(hh)
			fast, _, err := s.FindFirst("e", match)
			if err != nil {
				t.Fatal(err)
			}
			slow, _, err := s.findSlow("e", match)
			if err != nil {
				t.Fatal(err)
			}
			if len(fast.Approvals) != len(slow.Approvals) {
				t.Fatalf("FindFirst found %d entries, Read %d", len(fast.Approvals), len(slow.Approvals))
			}
			if len(fast.Approvals) == 1 {
				f, s := fast.Approvals[0], slow.Approvals[0]
				if f.Command != s.Command || f.ApprovedVia != s.ApprovedVia || f.ScriptSHA256 != s.ScriptSHA256 {
					t.Errorf("FindFirst found %+v, Read %+v", f, s)
				}
				if _, ok := fast.Find("e", f.Command); !ok {
					t.Error("the list FindFirst returns does not find its entry")
				}
			}
		})
	}
}
