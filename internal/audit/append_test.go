package audit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func rec(cmd string) Record {
	code := 0
	r := Record{Time: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Event: "pre_tool_call", Kind: "shell",
		Command: cmd, Via: ViaRunEvent}
	r.Result.ExitCode = &code
	return r
}

// readLines reads both files and fails on any line that does not parse.
func readLines(t *testing.T, home string) []Line {
	t.Helper()
	var lines []Line
	skipped, err := ReadAll(Path(home), func(l Line) error { lines = append(lines, l); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) > 0 {
		t.Errorf("unreadable lines: %+v", skipped)
	}
	return lines
}

func TestAppendRotates(t *testing.T) {
	home := t.TempDir()
	old := rotateSize
	rotateSize = 1000
	defer func() { rotateSize = old }()
	for i := range 30 {
		if err := Append(home, rec(fmt.Sprintf("hook %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := os.Stat(Path(home))
	prev, err := os.Stat(RotatedPath(Path(home)))
	if err != nil {
		t.Fatalf("no rotated log: %v", err)
	}
	if cur.Size() > rotateSize || prev.Size() > rotateSize {
		t.Errorf("sizes %d and %d, want each at most %d", cur.Size(), prev.Size(), rotateSize)
	}
	if perm := cur.Mode().Perm(); perm != 0o600 {
		t.Errorf("new log mode %o, want 600", perm)
	}
	lines := readLines(t, home)
	// Only one old file is kept: the newest lines survive, in order.
	last := lines[len(lines)-1].Command
	if last != "hook 29" {
		t.Errorf("last line %q, want hook 29", last)
	}
	for i := 1; i < len(lines); i++ {
		var a, b int
		fmt.Sscanf(lines[i-1].Command, "hook %d", &a)
		fmt.Sscanf(lines[i].Command, "hook %d", &b)
		if b != a+1 {
			t.Fatalf("lines out of order or missing across the rotation: %q then %q", lines[i-1].Command, lines[i].Command)
		}
	}
	if len(lines) >= 30 || len(lines) < 5 {
		t.Errorf("%d lines kept of 30 with two files of 1000 bytes", len(lines))
	}
}

// seam replaces the write and truncate calls for one test.
func seam(t *testing.T, w func(f *os.File, b []byte) (int, error), tr func(f *os.File, n int64) error) {
	oldW, oldT := writeFile, truncate
	writeFile, truncate = w, tr
	t.Cleanup(func() { writeFile, truncate = oldW, oldT })
}

// halfThenFull writes half of the buffer and says the disk is full.
func halfThenFull(f *os.File, b []byte) (int, error) {
	n, _ := f.Write(b[:len(b)/2])
	return n, syscall.ENOSPC
}

func TestAppendCutShortIsTakenBack(t *testing.T) {
	home := t.TempDir()
	if err := Append(home, rec("first")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(Path(home))
	seam(t, halfThenFull, func(f *os.File, n int64) error { return f.Truncate(n) })
	err := Append(home, rec("second"))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), Path(home)) {
		t.Fatalf("err = %v, want ENOSPC naming the log", err)
	}
	after, _ := os.ReadFile(Path(home))
	if !bytes.Equal(before, after) {
		t.Errorf("the cut line was not taken back:\n%q\nwant\n%q", after, before)
	}
}

// A fragment the writer could not take back is taken away by the next
// append, under the lock (SPEC §29 item 5): whole lines or none.
func TestAppendAfterFragmentTakesItAway(t *testing.T) {
	home := t.TempDir()
	if err := Append(home, rec("first")); err != nil {
		t.Fatal(err)
	}
	func() {
		seam(t, halfThenFull, func(*os.File, int64) error { return syscall.EIO })
		err := Append(home, rec("cut"))
		if err == nil || !strings.Contains(err.Error(), "could not be taken back") {
			t.Fatalf("err = %v, want one saying the cut line stayed", err)
		}
		writeFile, truncate = func(f *os.File, b []byte) (int, error) { return f.Write(b) }, func(f *os.File, n int64) error { return f.Truncate(n) }
	}()
	if err := Append(home, rec("third")); err != nil {
		t.Fatal(err)
	}
	var got []string
	skipped, err := ReadAll(Path(home), func(l Line) error { got = append(got, l.Command); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "first,third" {
		t.Errorf("lines %q, want first and third (the line after a fragment is whole)", got)
	}
	if len(skipped) != 0 {
		t.Errorf("skipped %+v, want the fragment gone", skipped)
	}
}

// TestAppendDiskFull fills a small tmpfs for real (root only).
func TestAppendDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=16k,mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	cuts := 0
	seam(t, func(f *os.File, b []byte) (int, error) { return f.Write(b) }, func(f *os.File, n int64) error {
		cuts++
		return f.Truncate(n)
	})
	var full error
	for i := 0; i < 10000 && full == nil; i++ {
		full = Append(dir, rec(fmt.Sprintf("hook %d %s", i, strings.Repeat("x", i%97))))
	}
	if !errors.Is(full, syscall.ENOSPC) {
		t.Fatalf("the disk never filled: %v", full)
	}
	data, err := os.ReadFile(Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("log of %d bytes does not end in a whole line", len(data))
	}
	lines := readLines(t, dir)
	if len(lines) == 0 || lines[len(lines)-1].Command == "" {
		t.Errorf("%d lines read", len(lines))
	}
	t.Logf("%d lines fit; %d cut line(s) taken back", len(lines), cuts)
}

func TestAppendRootKeepsFolderOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to create files for another user")
	}
	home := t.TempDir()
	if err := os.Chown(home, 65534, 65534); err != nil {
		t.Skip(err)
	}
	if err := Append(home, rec("x")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Dir(Path(home)), Path(home), LockPath(home)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
			t.Errorf("%s owned by %d:%d, want the home's owner 65534:65534", p, st.Uid, st.Gid)
		}
	}
}

func TestAppendLockTimeout(t *testing.T) {
	home := t.TempDir()
	if err := Append(home, rec("x")); err != nil {
		t.Fatal(err)
	}
	unlock := holdLock(t, home)
	done := make(chan error, 1)
	go func() { done <- Append(home, rec("y")) }()
	select {
	case err := <-done:
		t.Fatalf("append went ahead while the lock was held: %v", err)
	default:
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(readLines(t, home)); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}

// holdLock takes the log's lock through another open file description, as
// another process would, until unlock or the end of the test.
func holdLock(t *testing.T, home string) (unlock func()) {
	t.Helper()
	f, err := os.OpenFile(LockPath(home), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
}
