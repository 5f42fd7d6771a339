package allowlist

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var fixedNow = time.Date(2026, 11, 29, 10, 11, 12, 345678000, time.UTC)

func newStore(t *testing.T) *Store {
	t.Helper()
	s := Open(t.TempDir())
	s.Now = func() time.Time { return fixedNow }
	return s
}

func approve(event, command string) func(*List) error {
	return func(l *List) error {
		l.Approve(Entry{Event: event, Command: command, ApprovedAt: FormatTime(fixedNow)})
		return nil
	}
}

// dirNames lists a folder, to check what a write left behind.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestReadMissingIsEmptyAndWritesNothing(t *testing.T) {
	s := newStore(t)
	l, warnings, err := s.Read()
	if err != nil || len(warnings) != 0 || len(l.Approvals) != 0 {
		t.Fatalf("Read = %v, %q, %v", l, warnings, err)
	}
	if names := dirNames(t, filepath.Dir(s.Path)); len(names) != 0 {
		t.Errorf("Read created %v", names)
	}
}

func TestReadIOErrorIsError(t *testing.T) {
	s := newStore(t)
	if err := os.Mkdir(s.Path, 0o700); err != nil { // a folder where the file should be
		t.Fatal(err)
	}
	if _, _, err := s.Read(); err == nil || !strings.Contains(err.Error(), s.Path) {
		t.Errorf("Read of a folder: %v", err)
	}
}

func TestUpdateWritesModesAndNoTemp(t *testing.T) {
	s := newStore(t)
	for _, c := range []string{"a.sh", "b.sh"} {
		if w, err := s.Update(approve("pre_tool_call", c)); err != nil || len(w) != 0 {
			t.Fatalf("Update: %q %v", w, err)
		}
	}
	l, _, err := s.Read()
	if err != nil || commands(l) != "pre_tool_call:a.sh pre_tool_call:b.sh" {
		t.Fatalf("after two updates: %s %v", commands(l), err)
	}
	if m := mode(t, s.Path); m != 0o600 {
		t.Errorf("allowlist mode %o", m)
	}
	if m := mode(t, s.LockPath()); m != 0o600 {
		t.Errorf("lock mode %o", m)
	}
	names := strings.Join(dirNames(t, filepath.Dir(s.Path)), " ")
	if names != FileName+" "+FileName+".lock" {
		t.Errorf("folder holds %s", names)
	}
}

func TestUpdateRewritesLooserModeTo0600(t *testing.T) {
	s := newStore(t)
	if err := os.WriteFile(s.Path, []byte(`{"approvals": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(approve("e", "c")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, s.Path); m != 0o600 {
		t.Errorf("mode %o after rewrite", m)
	}
}

func TestUpdateUnchangedAndCallbackError(t *testing.T) {
	s := newStore(t)
	if _, err := s.Update(func(*List) error { return ErrUnchanged }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ErrUnchanged wrote the file: %v", err)
	}
	boom := errors.New("boom")
	_, err := s.Update(func(l *List) error { l.Approve(Entry{Event: "e", Command: "c"}); return boom })
	if !errors.Is(err, boom) {
		t.Errorf("callback error = %v", err)
	}
	if _, err := os.Stat(s.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failing callback wrote the file: %v", err)
	}
}

func TestUpdateCreatesHome(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "new", "home"))
	if _, err := s.Update(approve("e", "c")); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, filepath.Dir(s.Path)); m != 0o700 {
		t.Errorf("home created with mode %o", m)
	}
}

func TestCorruptFileKeptAsideOnNextUpdate(t *testing.T) {
	for _, bad := range []string{
		``, `{"approvals": [`, `[1, 2]`, `"x"`, `{"approvals": "all"}`, "{\"approvals\": [\"\xfe\"]}", "\uFEFF{nope",
	} {
		s := newStore(t)
		if err := os.WriteFile(s.Path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		l, warnings, err := s.Read()
		if err != nil || len(l.Approvals) != 0 || len(warnings) != 1 ||
			!strings.Contains(warnings[0], s.Path) || !strings.Contains(warnings[0], ".corrupt-") {
			t.Fatalf("Read(%q) = %d entries, %q, %v", bad, len(l.Approvals), warnings, err)
		}
		// Reading again must not have touched anything.
		if got, _ := os.ReadFile(s.Path); string(got) != bad {
			t.Fatalf("Read changed the file")
		}
		// ErrUnchanged: no write, so nothing kept aside yet.
		if _, err := s.Update(func(*List) error { return ErrUnchanged }); err != nil {
			t.Fatal(err)
		}
		aside := s.Path + ".corrupt-20261129T101112Z"
		if _, err := os.Stat(aside); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("kept aside without a write: %v", err)
		}

		warnings, err = s.Update(approve("e", "c"))
		if err != nil {
			t.Fatal(err)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], aside) || !strings.Contains(warnings[0], s.Path) {
			t.Errorf("Update warnings %q should name %s", warnings, aside)
		}
		if got, err := os.ReadFile(aside); err != nil || string(got) != bad {
			t.Errorf("kept copy = %q, %v; want %q", got, err, bad)
		}
		if m := mode(t, aside); m != 0o600 {
			t.Errorf("kept copy mode %o", m)
		}
		if l, w, _ := s.Read(); len(w) != 0 || commands(l) != "e:c" {
			t.Errorf("after recovery: %s %q", commands(l), w)
		}
	}
}

func TestCorruptCopiesNeverOverwrite(t *testing.T) {
	s := newStore(t)
	for i, bad := range []string{"first", "second"} {
		if err := os.WriteFile(s.Path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := s.Update(approve("e", "c"))
		if err != nil {
			t.Fatal(err)
		}
		name := s.Path + ".corrupt-20261129T101112Z"
		if i == 1 {
			name += "-2"
		}
		if got, _ := os.ReadFile(name); string(got) != bad || !strings.Contains(w[0], name) {
			t.Errorf("copy %d: %q in %s; warning %q", i, got, name, w)
		}
	}
}

func TestSymlinkedAllowlistKeepsLink(t *testing.T) {
	s := newStore(t)
	realDir := t.TempDir()
	real := filepath.Join(realDir, "real.json")
	if err := os.WriteFile(real, []byte(`{"approvals": [], "keep": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, s.Path); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(approve("e", "c")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(s.Path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi.Mode(), err)
	}
	got, _ := os.ReadFile(real)
	if compact(t, got) != `{"approvals":[{"approved_at":"2026-11-29T10:11:12.345678Z","command":"c","event":"e","script_mtime_at_approval":null,"script_sha256_at_approval":null}],"keep":1}` {
		t.Errorf("target holds %s", got)
	}
	if names := dirNames(t, realDir); len(names) != 1 {
		t.Errorf("temp left beside the target: %v", names)
	}
}

func TestRelativeAndDanglingSymlink(t *testing.T) {
	s := newStore(t)
	dir := filepath.Dir(s.Path)
	if err := os.Symlink("sub/target.json", s.Path); err != nil { // dangling, relative
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(approve("e", "c")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "target.json")); err != nil {
		t.Errorf("target not created: %v", err)
	}
	if l, _, _ := s.Read(); commands(l) != "e:c" {
		t.Errorf("read through link: %s", commands(l))
	}
}

func TestFailedWriteIsErrorAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "occupied")
	// A non-empty folder cannot be replaced by rename: the write must fail
	// after the temp file was made, and clean it up.
	if err := os.MkdirAll(filepath.Join(target, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	err := writeAtomic(target, []byte("data"))
	if err == nil || !strings.Contains(err.Error(), target) {
		t.Fatalf("writeAtomic over a folder: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
}

func TestUpdateHoldsTheLock(t *testing.T) {
	s := newStore(t)
	// While fn runs, another flock on the lock file must be refused.
	_, err := s.Update(func(*List) error {
		if tryLock(t, s.LockPath()) {
			t.Error("lock was free during Update")
		}
		return ErrUnchanged
	})
	if err != nil {
		t.Fatal(err)
	}
	if !tryLock(t, s.LockPath()) {
		t.Error("lock still held after Update")
	}
}

// TestReadAhead checks that the first Read after ReadAhead returns the
// reading it started, that later Reads read again, and that Update drops a
// pending reading so a Read after it sees the update.
func TestReadAhead(t *testing.T) {
	s := newStore(t)
	if _, err := s.Update(approve("pre_tool_call", "/a.sh")); err != nil {
		t.Fatal(err)
	}
	s.ReadAhead()
	l, warnings, err := s.Read()
	if err != nil || len(warnings) > 0 {
		t.Fatalf("Read = %v, %v", warnings, err)
	}
	if _, ok := l.Find("pre_tool_call", "/a.sh"); !ok {
		t.Error("the reading ahead misses /a.sh")
	}
	if s.ahead != nil {
		t.Error("the reading ahead was not consumed")
	}

	s.ReadAhead()
	if _, err := s.Update(approve("pre_tool_call", "/b.sh")); err != nil {
		t.Fatal(err)
	}
	l, _, err = s.Read()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := l.Find("pre_tool_call", "/b.sh"); !ok {
		t.Error("a Read after Update returned the reading from before it")
	}

	// Reads from several goroutines: one gets the reading ahead, the
	// others read again; all see the file (run with -race).
	s.ReadAhead()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if l, _, err := s.Read(); err != nil || len(l.Approvals) != 2 {
				t.Errorf("concurrent Read: %v, %v", l, err)
			}
		})
	}
	wg.Wait()

	// A reading ahead of a file that cannot be read carries the error.
	bad := Open(filepath.Join(t.TempDir(), "dir-not-file"))
	if err := os.MkdirAll(bad.Path, 0o700); err != nil {
		t.Fatal(err)
	}
	bad.ReadAhead()
	if _, _, err := bad.Read(); err == nil {
		t.Error("a reading ahead of a folder gave no error")
	}
}
