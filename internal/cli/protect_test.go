package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardPath: the guard protect writes is beside the hermes that was
// run, by the path it was run as: a symlink to a versioned folder is not
// followed (an upgrade moves the folder, not the link).
func TestGuardPath(t *testing.T) {
	dir := t.TempDir()
	versioned := filepath.Join(dir, "Cellar", "hermes", "1.2", "bin")
	bin := filepath.Join(dir, "bin")
	for _, d := range []string{versioned, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"hermes", "hermes-guard"} {
		if err := os.WriteFile(filepath.Join(versioned, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(versioned, n), filepath.Join(bin, n)); err != nil {
			t.Fatal(err)
		}
	}
	saved := os.Args[0]
	defer func() { os.Args[0] = saved }()

	os.Args[0] = filepath.Join(bin, "hermes")
	if got, err := guardPath(); err != nil || got != filepath.Join(bin, "hermes-guard") {
		t.Errorf("guardPath() = %q, %v; want %s", got, err, filepath.Join(bin, "hermes-guard"))
	}
	t.Setenv("PATH", bin)
	os.Args[0] = "hermes"
	if got, err := guardPath(); err != nil || got != filepath.Join(bin, "hermes-guard") {
		t.Errorf("guardPath() via PATH = %q, %v", got, err)
	}
	if err := os.Remove(filepath.Join(bin, "hermes-guard")); err != nil {
		t.Fatal(err)
	}
	if _, err := guardPath(); err == nil || !strings.Contains(err.Error(), "missing or not executable") {
		t.Errorf("a missing guard: %v", err)
	}
}
