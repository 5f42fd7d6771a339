package allowlist

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

func shaOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func strp(s string) *string { return &s }

func TestDriftTable(t *testing.T) {
	mtime := time.Date(2026, 11, 28, 9, 0, 0, 123456789, time.UTC)
	shaA, shaB := shaOf([]byte("a")), shaOf([]byte("b"))
	now := Fingerprint{SHA256: shaA, Mtime: mtime}
	ours := strp(MtimeString(mtime))                   // rounded like the agent: .123457Z
	old := strp("2026-11-28T09:00:00.123456Z")         // what hermes wrote before: truncated
	python := strp("2026-11-28T09:00:00.123457+00:00") // datetime rounds
	for _, tc := range []struct {
		name  string
		e     Entry
		fp    Fingerprint
		drift Drift
	}{
		{"sha and mtime equal", Entry{ScriptSHA256: shaA, ScriptMtime: ours}, now, DriftUnchanged},
		{"sha equal, old truncated mtime: the agent sees drift too", Entry{ScriptSHA256: shaA, ScriptMtime: old}, now, DriftTouched},
		{"agent: old truncated mtime is drift for the agent", Entry{ScriptMtime: old}, now, DriftModified},
		{"sha equal, mtime differs", Entry{ScriptSHA256: shaA, ScriptMtime: strp("2026-11-28T09:00:00Z")}, now, DriftTouched},
		{"sha equal, no mtime", Entry{ScriptSHA256: shaA}, now, DriftUnchanged},
		{"sha equal, mtime unreadable", Entry{ScriptSHA256: shaA, ScriptMtime: strp("?")}, now, DriftUnchanged},
		{"sha differs", Entry{ScriptSHA256: shaB, ScriptMtime: ours}, now, DriftModified},
		{"script gone", Entry{ScriptSHA256: shaA, ScriptMtime: ours}, Fingerprint{Err: os.ErrNotExist}, DriftMissing},
		{"no script path", Entry{}, Fingerprint{Err: ErrNoScript}, DriftMissing},
		{"agent: mtime equal", Entry{ScriptMtime: python}, now, DriftUnchanged},
		{"agent: our format equal", Entry{ScriptMtime: ours}, now, DriftUnchanged},
		{"agent: epoch number equal", Entry{ScriptMtime: strp(fmt.Sprintf("%.9f", float64(mtime.UnixNano())/1e9))}, now, DriftUnchanged},
		{"agent: mtime later now", Entry{ScriptMtime: strp("2026-11-28T08:59:59.123457+00:00")}, now, DriftModified},
		{"agent: 1µs later now", Entry{ScriptMtime: strp("2026-11-28T09:00:00.123455Z")}, now, DriftModified},
		{"agent: mtime earlier now", Entry{ScriptMtime: strp("2026-11-28T09:00:01Z")}, now, DriftUnknown},
		{"nothing recorded", Entry{}, now, DriftUnknown},
		{"unparsable mtime, no sha", Entry{ScriptMtime: strp("yesterday")}, now, DriftUnknown},
	} {
		if got := DriftOf(tc.e, tc.fp); got != tc.drift {
			t.Errorf("%s: DriftOf = %s, want %s", tc.name, got, tc.drift)
		}
	}
}

// The same rules against real files and real filesystem mtimes.
func TestDriftOfRealScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.sh")
	body := []byte("#!/bin/sh\necho ok\n")
	past := time.Date(2026, 11, 28, 9, 0, 0, 123456789, time.UTC)
	write := func(b []byte, mtime time.Time) {
		t.Helper()
		if err := os.WriteFile(script, b, 0o700); err != nil {
			t.Fatal(err)
		}
		if !mtime.IsZero() {
			if err := os.Chtimes(script, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
	drift := func(e Entry) Drift { return DriftOf(e, NewFingerprinter().Of(script)) }

	write(body, past)
	e := NewEntry("pre_tool_call", script, ViaAccept, NewFingerprinter().Of(script), fixedNow)
	if e.ScriptSHA256 != shaOf(body) || *e.ScriptMtime != "2026-11-28T09:00:00.123457Z" {
		t.Fatalf("recorded %s %s", e.ScriptSHA256, *e.ScriptMtime)
	}
	agent := Entry{Event: e.Event, Command: e.Command, ScriptMtime: e.ScriptMtime} // no sha
	steps := []struct {
		name         string
		change       func()
		ours, agents Drift
	}{
		{"as approved", func() {}, DriftUnchanged, DriftUnchanged},
		{"touch", func() { os.Chtimes(script, past.Add(time.Hour), past.Add(time.Hour)) }, DriftTouched, DriftModified},
		{"same bytes rewritten", func() { write(body, past.Add(2*time.Hour)) }, DriftTouched, DriftModified},
		{"touched back", func() { os.Chtimes(script, past, past) }, DriftUnchanged, DriftUnchanged},
		{"mtime set earlier", func() { os.Chtimes(script, past.Add(-time.Hour), past.Add(-time.Hour)) }, DriftTouched, DriftUnknown},
		{"real edit", func() { write([]byte("#!/bin/sh\nrm -rf ~\n"), past.Add(3*time.Hour)) }, DriftModified, DriftModified},
		{"edit keeping the mtime", func() { write([]byte("#!/bin/sh\nexit 2\n"), past) }, DriftModified, DriftUnchanged},
		{"deleted", func() { os.Remove(script) }, DriftMissing, DriftMissing},
	}
	for _, st := range steps {
		st.change()
		if got := drift(e); got != st.ours {
			t.Errorf("%s: pinned entry drift %s, want %s", st.name, got, st.ours)
		}
		if got := drift(agent); got != st.agents {
			t.Errorf("%s: agent entry drift %s, want %s", st.name, got, st.agents)
		}
	}
}

func TestFingerprintFiles(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.sh")
	os.WriteFile(small, []byte("echo hi\n"), 0o700)
	empty := filepath.Join(dir, "empty.sh")
	os.WriteFile(empty, nil, 0o700)
	link := filepath.Join(dir, "link.sh")
	os.Symlink("small.sh", link)
	big := filepath.Join(dir, "big.sh") // sparse: one byte past the snapshot limit
	if f, err := os.Create(big); err == nil {
		f.Truncate(MaxSnapshot + 1)
		f.Close()
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}

	fp := NewFingerprinter()
	if g := fp.Of(small); g.Err != nil || g.SHA256 != shaOf([]byte("echo hi\n")) || string(g.Content) != "echo hi\n" || g.Mtime.IsZero() {
		t.Errorf("small: %+v", g)
	}
	if g := fp.Of(empty); g.Err != nil || g.Content == nil || len(g.Content) != 0 || g.SHA256 != shaOf(nil) {
		t.Errorf("empty: %+v", g)
	}
	if g := fp.Of(link); g.Err != nil || g.Path != link || g.SHA256 != shaOf([]byte("echo hi\n")) {
		t.Errorf("symlink not followed: %+v", g)
	}
	if g := fp.Of(big); g.Err != nil || g.Content != nil || g.SHA256 != shaOf(make([]byte, MaxSnapshot+1)) {
		t.Errorf("big: err %v, content %d bytes, sha %s", g.Err, len(g.Content), g.SHA256)
	}
	if g := fp.Of(fifo); g.Err == nil || g.SHA256 != "" {
		t.Errorf("fifo: %+v", g)
	}
	if g := fp.Of(dir); g.Err == nil || g.Mtime.IsZero() {
		t.Errorf("folder: %+v", g)
	}
	if g := fp.Of(filepath.Join(dir, "nope")); !errors.Is(g.Err, os.ErrNotExist) || !g.Mtime.IsZero() {
		t.Errorf("missing: %+v", g)
	}
	if g := fp.Of(""); !errors.Is(g.Err, ErrNoScript) {
		t.Errorf("no path: %+v", g)
	}
	// Sizes around the page the old buffer had and the snapshot's limit:
	// each hashed whole, its bytes kept up to the limit.
	for _, n := range []int{1, 4095, 4096, 4097, 64 << 10, MaxSnapshot} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7 + n)
		}
		p := filepath.Join(dir, fmt.Sprintf("size-%d", n))
		if err := os.WriteFile(p, b, 0o700); err != nil {
			t.Fatal(err)
		}
		if g := FingerprintNow(p); g.Err != nil || g.SHA256 != shaOf(b) || len(g.Content) != n || string(g.Content) != string(b) {
			t.Errorf("%d bytes: err %v, %d bytes kept, sha %s", n, g.Err, len(g.Content), g.SHA256)
		}
	}
	// A file holding more than its stated size (0 for /proc files): read
	// to its end all the same.
	want, err := os.ReadFile("/proc/self/cmdline")
	if err != nil || len(want) == 0 {
		t.Skip("no /proc/self/cmdline")
	}
	if g := FingerprintNow("/proc/self/cmdline"); g.Err != nil || g.SHA256 != shaOf(want) || string(g.Content) != string(want) {
		t.Errorf("/proc/self/cmdline (stated size 0): err %v, %q, want %q", g.Err, g.Content, want)
	}
}

func TestFingerprinterHashesOncePerPath(t *testing.T) {
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "a.sh"), filepath.Join(dir, "b.sh")}
	for _, p := range paths {
		os.WriteFile(p, []byte(p), 0o700)
	}
	var calls sync.Map // path -> *atomic.Int32
	f := &Fingerprinter{compute: func(p string) Fingerprint {
		n, _ := calls.LoadOrStore(p, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		return fingerprintFile(p)
	}}
	var wg sync.WaitGroup
	for i := range 50 { // 50 hooks sharing two scripts, asked concurrently
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := paths[i%2]
			if got := f.Of(p); got.SHA256 != shaOf([]byte(p)) {
				t.Errorf("Of(%s) = %+v", p, got)
			}
		}()
	}
	wg.Wait()
	for _, p := range paths {
		n, ok := calls.Load(p)
		if !ok || n.(*atomic.Int32).Load() != 1 {
			t.Errorf("%s hashed %v times, want 1", p, n)
		}
	}
}

// TestHeadReadsWithTheHash: Head answers as shell.ReadHead does, for
// every kind of file; a small script's fingerprint comes with it, so Of
// then hashes nothing, and is the fingerprint Of would have made; a big
// one, or one Of had answered already, is left to Of.
func TestHeadReadsWithTheHash(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small.sh", []byte("#!/bin/sh\necho hi\n"))
	long := make([]byte, headWhole+1)
	copy(long, "#!/usr/bin/env python3\n")
	big := write("big.py", long)
	empty := write("empty.sh", nil)
	before := write("before.sh", []byte("#!/bin/bash\n"))
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	computed := map[string]int{}
	var mu sync.Mutex
	f := &Fingerprinter{compute: func(p string) Fingerprint {
		mu.Lock()
		computed[p]++
		mu.Unlock()
		return fingerprintFile(p)
	}}
	f.Of(before)
	for _, p := range []string{small, big, empty, before, fifo, dir, filepath.Join(dir, "nope")} {
		want := shell.ReadHead(p)
		if got := f.Head(p, shell.HeadSize); string(got) != string(want) || (got == nil) != (want == nil) {
			t.Errorf("Head(%s) = %q, want %q", filepath.Base(p), got, want)
		}
	}
	for _, p := range []string{small, big, empty, before} {
		if got, want := f.Of(p), fingerprintFile(p); got.SHA256 != want.SHA256 || !got.Mtime.Equal(want.Mtime) || string(got.Content) != string(want.Content) || got.Err != nil {
			t.Errorf("Of(%s) after Head = %+v, want %+v", filepath.Base(p), got, want)
		}
	}
	if computed[small] != 0 || computed[empty] != 0 {
		t.Errorf("small scripts hashed again after Head: %v", computed)
	}
	if computed[big] != 1 || computed[before] != 1 {
		t.Errorf("a big script and one hashed before Head: %v, want once each", computed)
	}
}
