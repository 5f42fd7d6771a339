package guard

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// testDialect upper-cases the payload and answers with a context naming
// what the hook printed and how it exited; --if skip runs nothing.
type testDialect struct{}

func (testDialect) Input(inv Invocation, payload []byte) (In, error) {
	if inv.Extra["--if"] == "skip" {
		return In{Skip: "skipped"}, nil
	}
	return In{Stdin: bytes.ToUpper(payload), Env: []string{"TEST_DIALECT=1"}}, nil
}

func (testDialect) Answer(inv Invocation, out Out) ([]byte, int, []string) {
	return []byte(`{"context": "` + strings.TrimSpace(string(out.Stdout)) + ` exit ` + strconv.Itoa(out.Exit) +
		` err ` + strings.TrimSpace(string(out.Stderr)) + `"}`), 0, []string{"translated"}
}

func TestMain(m *testing.M) {
	if os.Getenv("GUARD_TEST_MAIN") == "1" {
		RegisterDialect("test", func() Dialect { return testDialect{} })
		os.Exit(Main(os.Args))
	}
	os.Exit(m.Run())
}

// TestDialectPlugsIn runs this test binary as the guard with a dialect: the
// hook reads the translated payload, the agent reads the translated answer.
func TestDialectPlugsIn(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	hh := filepath.Join(dir, ".hermes")
	script := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ncat\necho \"e$TEST_DIALECT\" >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ ifRule, want string }{
		{"run", `{"context": "{"A": 1} exit 3 err e1"}`},
		{"skip", ``},
	} {
		argv := []string{self, "--event", "pre_llm_call", "--dialect", "test", "--if", tt.ifRule, "--", script}
		e := allowlist.NewEntry("pre_llm_call", strings.Join(argv, " "), allowlist.ViaProtect, allowlist.FingerprintNow(script), time.Now())
		if _, err := allowlist.Open(hh).Update(func(l *allowlist.List) error { l.Approve(e); return nil }); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = []string{"GUARD_TEST_MAIN=1", "HOME=" + dir, "HERMES_HOME=" + hh, "PATH=/usr/bin:/bin"}
		cmd.Stdin = strings.NewReader(`{"a": 1}`)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("--if %s: %v\n%s", tt.ifRule, err, stderr.String())
		}
		if string(out) != tt.want {
			t.Errorf("--if %s: stdout %s, want %s", tt.ifRule, out, tt.want)
		}
	}
	if _, err := dialectOf(Invocation{Extra: map[string]string{"--dialect": "nope"}}); err == nil {
		t.Error("an unknown dialect was accepted")
	}
}
