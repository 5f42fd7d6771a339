package allowlist

import (
	"fmt"
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

// A note makes the next lookup read the entry alone; a note for another
// version of the file, or pointing at an entry that is not the hook's, is
// ignored and the file walked again.
func TestFindFirstNoted(t *testing.T) {
	hh := t.TempDir()
	path := filepath.Join(hh, FileName)
	text := `{"approvals": [{"event": "e", "command": "/a.sh", "approved_via": "a"}, {"event": "e", "command": "/b.sh", "approved_via": "b"}]}`
	os.WriteFile(path, []byte(text), 0o600)
	s := Open(hh)
	is := func(want string) func(string) bool { return func(c string) bool { return c == want } }
	l, _, err := s.FindFirstNoted("e", "n", is("/b.sh"))
	if err != nil || len(l.Approvals) != 1 || l.Approvals[0].ApprovedVia != "b" {
		t.Fatalf("first lookup: %+v %v", l, err)
	}
	note, err := os.ReadFile(s.notePath("n"))
	if err != nil {
		t.Fatal(err)
	}
	// The note is read: pointed at another approval of the same hook, the
	// lookup returns that one (a walk would return the first).
	two := `{"approvals": [{"event": "e", "command": "/b.sh", "approved_via": "one"}, {"event": "e", "command": "/b.sh", "approved_via": "two"}]}`
	os.WriteFile(path, []byte(two), 0o600)
	fi, _ := os.Stat(path)
	second := int64(len(`{"approvals": [{"event": "e", "command": "/b.sh", "approved_via": "one"}, `))
	writeNote(s.notePath("n"), fileID(fi), second, int64(len(`{"event": "e", "command": "/b.sh", "approved_via": "two"}`)))
	l, _, _ = s.FindFirstNoted("e", "n", is("/b.sh"))
	if len(l.Approvals) != 1 || l.Approvals[0].ApprovedVia != "two" {
		t.Fatalf("the note was not used: %+v", l)
	}
	os.WriteFile(path, []byte(text), 0o600)
	s.FindFirstNoted("e", "n", is("/b.sh"))
	note, _ = os.ReadFile(s.notePath("n"))
	// A note pointing at /a.sh's entry is checked and not believed.
	fi, _ = os.Stat(path)
	id := fileID(fi)
	writeNote(s.notePath("n"), id, int64(len(`{"approvals": [`)), int64(len(`{"event": "e", "command": "/a.sh", "approved_via": "a"}`)))
	l, _, _ = s.FindFirstNoted("e", "n", is("/b.sh"))
	if len(l.Approvals) != 1 || l.Approvals[0].ApprovedVia != "b" {
		t.Fatalf("a forged note was believed: %+v", l)
	}
	// A new version of the file: the note no longer applies.
	os.WriteFile(s.notePath("n"), note, 0o600)
	os.WriteFile(path, []byte(`{"approvals": [{"event": "e", "command": "/b.sh", "approved_via": "new"}]}`), 0o600)
	l, _, _ = s.FindFirstNoted("e", "n", is("/b.sh"))
	if len(l.Approvals) != 1 || l.Approvals[0].ApprovedVia != "new" {
		t.Fatalf("after the file changed: %+v", l)
	}
	// Nothing found: nothing noted, nothing approved.
	l, _, _ = s.FindFirstNoted("e", "other", is("/c.sh"))
	if len(l.Approvals) != 0 {
		t.Fatalf("found %+v", l)
	}
	if _, err := os.Stat(s.notePath("other")); err == nil {
		t.Error("a note was kept for a lookup that found nothing")
	}
}

// TestParseNote: a note reads back as written; anything else is no note.
func TestParseNote(t *testing.T) {
	id := noteID{dev: 64769, ino: 1 << 63, size: 12345, ctime: 1764633600123456789}
	n, at, size, ok := parseNote([]byte(fmt.Sprintf("%d %d %d %d %d %d\n", id.dev, id.ino, id.size, id.ctime, 17, 330)))
	if !ok || n != id || at != 17 || size != 330 {
		t.Fatalf("read %v %d %d %v", n, at, size, ok)
	}
	for _, bad := range []string{"", "\n", "1 2 3 4 5 6", "1 2 3 4 5\n", "1 2 3 4 5 6 7\n", "1 2 3 4 5 x\n", "1  2 3 4 5 6\n", "-1 2 3 4 5 6\n"} {
		if _, _, _, ok := parseNote([]byte(bad)); ok {
			t.Errorf("%q read as a note", bad)
		}
	}
}
