package hooks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// ReplaceScript: the new bytes land at the script's path with its mode,
// through a link the link stays, the approval pins the new sha256 alone,
// and a hash that is not the one shown changes nothing.
func TestReplaceScript(t *testing.T) {
	h := newTrustHome(t, "hooks:\n  pre_tool_call:\n    - command: \"~/link.sh\"\n", map[string]string{"real.sh": hookV1})
	os.Chmod(h.path("real.sh"), 0o750)
	if err := os.Symlink(h.path("real.sh"), h.path("link.sh")); err != nil {
		t.Fatal(err)
	}
	h.approveAll()
	s, _ := h.load()
	sh := h.hook("~/link.sh")
	v2 := []byte("#!/bin/sh\necho v2\n")
	sha := fingerprintOf(t, v2)

	if _, _, err := s.ReplaceScript(sh, v2, strings.Repeat("0", 64), allowlist.ViaAccept, time.Now()); !errors.Is(err, ErrHashMismatch) {
		t.Fatalf("a hash not shown: %v", err)
	}
	if b, _ := os.ReadFile(h.path("real.sh")); string(b) != hookV1 {
		t.Fatalf("the script changed on a mismatch: %q", b)
	}
	e, _, err := s.ReplaceScript(sh, v2, sha, allowlist.ViaAccept, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(h.path("real.sh")); string(b) != string(v2) {
		t.Fatalf("the script's target now holds %q", b)
	}
	if fi, _ := os.Lstat(h.path("link.sh")); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced by a file")
	}
	if fi, _ := os.Stat(h.path("real.sh")); fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750", fi.Mode().Perm())
	}
	_, list := h.load()
	if got := list.Entries("pre_tool_call", "~/link.sh"); len(got) != 1 || got[0].ScriptSHA256 != sha || e.ScriptSHA256 != sha {
		t.Errorf("approvals after the swap: %+v", got)
	}
	if now := h.hook("~/link.sh"); !now.Allowed() {
		t.Error("the new version is not allowed")
	}
	if left, _ := filepath.Glob(h.path(".real.sh.hermes-edit-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A swap that fails (the rename) withdraws the staged approval: the
// allowlist is as it was.
func TestSwapRollsBack(t *testing.T) {
	dir := t.TempDir()
	store := allowlist.Open(dir)
	old := allowlist.Entry{Event: "pre_tool_call", Command: "x", ScriptSHA256: strings.Repeat("a", 64)}
	if _, err := store.Update(func(l *allowlist.List) error { l.Approve(old); return nil }); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(store.Path)
	staged := old
	staged.ScriptSHA256 = strings.Repeat("b", 64)
	_, err := store.Swap(func(l *allowlist.List) error { l.Stage(staged); return nil },
		func() error {
			l, _, _ := store.Read()
			if n := len(l.Entries("pre_tool_call", "x")); n != 2 {
				t.Errorf("while swapping, %d entries", n)
			}
			return errors.New("rename failed")
		},
		func(l *allowlist.List) error { t.Error("commit after a failed swap"); return nil })
	if !errors.Is(err, allowlist.ErrSwapRolledBack) {
		t.Fatalf("err = %v", err)
	}
	if after, _ := os.ReadFile(store.Path); string(after) != string(before) {
		t.Errorf("allowlist after the rollback:\n%s\nwant\n%s", after, before)
	}
}

func fingerprintOf(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "x")
	os.WriteFile(p, b, 0o600)
	return allowlist.FingerprintNow(p).SHA256
}
