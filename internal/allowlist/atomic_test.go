package allowlist

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A writer killed between creating its temp file and renaming it leaves
// the temp file behind; the next update removes it once it is stale, and
// leaves a fresh one (a write in progress) alone.
func TestUpdateRemovesStaleTempFiles(t *testing.T) {
	home := t.TempDir()
	s := Open(home)
	stale := filepath.Join(home, "."+FileName+".tmp-123")
	fresh := filepath.Join(home, "."+FileName+".tmp-456")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte(`{"approvals": [`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(func(l *List) error {
		l.Approve(Entry{Event: "pre_tool_call", Command: "x"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp file still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp file removed: %v", err)
	}
}
