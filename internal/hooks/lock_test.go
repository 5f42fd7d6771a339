package hooks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/lockfile"
)

// The lock of a home: commands as written, scripts relative to the home,
// a gateway hook's files, and the same bytes every time (SPEC §20).
func TestSetupLock(t *testing.T) {
	cfg := `hooks:
  pre_tool_call:
    - matcher: terminal
      command: "${HERMES_HOME}/g.sh --strict"
    - command: "/bin/echo <out>"
  on_session_start:
    - command: "${HERMES_HOME}/g.sh"
  outbound:
    - url: https://example.test/in?token=s3cret
      events: [post_tool_call]
`
	h := newTrustHome(t, cfg, map[string]string{"g.sh": "#!/bin/sh\n"})
	if err := os.MkdirAll(filepath.Join(h.dir, "hooks", "n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"HOOK.yaml": "name: n\nevents: [\"agent:start\"]\n", "handler.py": "def handle(t, c): pass\n"} {
		if err := os.WriteFile(filepath.Join(h.dir, "hooks", "n", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := h.load()
	l, err := s.Lock()
	if err != nil {
		t.Fatal(err)
	}
	data := lockfile.Marshal(l)
	for _, want := range []string{
		`"event": "on_session_start",` + "\n      \"matcher\": null,\n      \"command\": \"${HERMES_HOME}/g.sh\",\n      \"script\": \"g.sh\",",
		`"matcher": "terminal",` + "\n      \"command\": \"${HERMES_HOME}/g.sh --strict\"",
		`"command": "/bin/echo <out>"`,
		`"path": "HOOK.yaml"`, `"path": "handler.py"`,
		`"url": "https://example.test/in?token=***"`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("lock lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "s3cret") || strings.Contains(string(data), h.dir) {
		t.Errorf("lock holds a secret or the home's absolute path:\n%s", data)
	}
	s2, _ := h.load()
	l2, _ := s2.Lock()
	if !bytes.Equal(lockfile.Marshal(l2), data) {
		t.Error("two locks of the same home differ")
	}
	if d := lockfile.Compare(l, l2); len(d) != 0 {
		t.Errorf("differences between equal homes: %v", d)
	}
}

// BenchmarkLock: the lock of a home of 1,000 shell hooks over 10 scripts,
// and its comparison with a lock read back (doctor --lock's work besides
// loading).
func BenchmarkLock(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	scripts := map[string]string{}
	for i := range 1000 {
		fmt.Fprintf(&cfg, "    - command: \"~/s%d.sh --n %d\"\n", i%10, i)
	}
	for i := range 10 {
		scripts[fmt.Sprintf("s%d.sh", i)] = "#!/bin/sh\ncat >/dev/null\n" + strings.Repeat("# x\n", 1000)
	}
	h := newTrustHome(b, cfg.String(), scripts)
	s, _ := h.load()
	want, _ := s.Lock()
	want, _ = lockfile.Parse("x", lockfile.Marshal(want))
	b.Run("lock+marshal", func(b *testing.B) {
		for b.Loop() {
			s, _ := h.load()
			l, err := s.Lock()
			if err != nil {
				b.Fatal(err)
			}
			_ = lockfile.Marshal(l)
		}
	})
	b.Run("compare", func(b *testing.B) {
		got, _ := s.Lock()
		for b.Loop() {
			if d := lockfile.Compare(want, got); len(d) != 0 {
				b.Fatal(d)
			}
		}
	})
}
