package doctor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// testHome is a HERMES_HOME (which is also the user's home, so ~/x.sh is a
// script in it) for doctor's tests: the engine's own tests have a fuller
// one (trustHome), which a test in another package cannot reach.
type testHome struct {
	t   testing.TB
	dir string
}

var approvedMtime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

const hookV1 = "#!/bin/sh\necho v1\n"

// newTestHome writes cfg as config.yaml and each script (mode 0755, mtime
// approvedMtime).
func newTestHome(t testing.TB, cfg string, scripts map[string]string) *testHome {
	t.Helper()
	h := &testHome{t: t, dir: t.TempDir()}
	if err := os.WriteFile(filepath.Join(h.dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		h.write(name, body, approvedMtime)
	}
	return h
}

func (h *testHome) path(name string) string { return filepath.Join(h.dir, name) }

// write replaces a script's bytes and sets its mtime.
func (h *testHome) write(name, body string, mtime time.Time) {
	h.t.Helper()
	if err := os.WriteFile(h.path(name), []byte(body), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.Chtimes(h.path(name), mtime, mtime); err != nil {
		h.t.Fatal(err)
	}
}

// load is what one invocation of hermes sees: a fresh Setup and the
// allowlist as it is now.
func (h *testHome) load() (*hooks.Setup, *allowlist.List) {
	h.t.Helper()
	s, err := hooks.Load(config.Request{HomeFlag: h.dir, UserHome: h.dir, Env: config.MapEnv(nil)})
	if err != nil {
		h.t.Fatal(err)
	}
	if d := s.Diagnostics(); len(d) > 0 {
		h.t.Fatalf("test config has diagnostics: %v", d)
	}
	list, warnings, err := s.Store.Read()
	if err != nil || len(warnings) > 0 {
		h.t.Fatalf("reading the allowlist: %v %q", err, warnings)
	}
	return s, list
}

// approveAll approves every configured hook as `hermes hooks accept --all`.
func (h *testHome) approveAll() {
	h.t.Helper()
	s, list := h.load()
	if _, _, err := s.Approve(s.ShellHooks(list), allowlist.ViaAccept, time.Now()); err != nil {
		h.t.Fatal(err)
	}
}
