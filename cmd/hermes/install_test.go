package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeInstall installs into a temporary PREFIX as the README says
// (SPEC §20): every cmd/* binary but gen-docs, the man pages under
// share/man/man1, completions where bash, zsh and fish look.
func TestMakeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every binary: skipped with -short")
	}
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed")
	}
	goPath, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	prefix := t.TempDir()
	cmd := exec.Command(makePath, "-C", "../..", "install", "PREFIX="+prefix, "GO="+goPath, "VERSION=v9.9.9-test")
	// HERMES_HOME pointing nowhere must not matter to an install.
	cmd.Env = append(os.Environ(), "HERMES_HOME="+filepath.Join(prefix, "no-such-home"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	dirs, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		bin := filepath.Join(prefix, "bin", d.Name())
		_, err := os.Stat(bin)
		if d.Name() == "gen-docs" {
			if err == nil {
				t.Error("gen-docs was installed")
			}
			continue
		}
		if err != nil {
			t.Errorf("cmd/%s was not installed: %v", d.Name(), err)
		}
	}
	out, err := exec.Command(filepath.Join(prefix, "bin", "hermes"), "version").Output()
	if err != nil || strings.TrimSpace(string(out)) != "hermes v9.9.9-test" {
		t.Errorf("installed hermes version = %q, %v", out, err)
	}
	for _, f := range []string{
		"share/man/man1/hermes.1", "share/man/man1/hermes-hooks-list.1", "share/man/man1/hermes-hooks-lock.1",
		"share/bash-completion/completions/hermes", "share/zsh/site-functions/_hermes",
		"share/fish/vendor_completions.d/hermes.fish",
	} {
		if fi, err := os.Stat(filepath.Join(prefix, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not installed (or empty): %v", f, err)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(prefix, "share/man/man1/hermes-hooks-list.1")); !strings.Contains(string(data), `.TH "HERMES-HOOKS-LIST" "1"`) {
		t.Error("hermes-hooks-list.1 is not titled HERMES-HOOKS-LIST(1)")
	}
}
