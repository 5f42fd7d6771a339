package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// SPEC §13.2 rule 7: new --approve pins the bytes it wrote, and only while
// the file still holds them: a rewrite between the write and the approval
// (another process racing it) is not approved.
func TestNewApprovePinsWhatItWrote(t *testing.T) {
	userHome := t.TempDir()
	home := filepath.Join(userHome, ".hermes")
	h := harnessAt(t, userHome, home)
	h.env["HERMES_HOME"] = home
	h.write(t, "config.yaml", "hooks:\n  on_session_start:\n    - command: \"${HERMES_HOME}/agent-hooks/x.sh\"\n", 0o600)
	h.write(t, "agent-hooks/x.sh", "#!/bin/sh\necho rewritten\n", 0o744)
	nh := hookspec.NewHook{Event: "on_session_start", Command: "${HERMES_HOME}/agent-hooks/x.sh"}
	opts := &newOptions{f: h.f}

	ok, _, err := approveNew(opts, nh, []byte("#!/bin/sh\necho written\n"))
	if ok || !errors.Is(err, hooks.ErrHashMismatch) {
		t.Fatalf("approveNew of a rewritten script = %v, %v", ok, err)
	}
	if _, err := os.Stat(h.allowlistPath()); err == nil && len(h.entries(t)) > 0 {
		t.Fatalf("the rewritten script was approved: %+v", h.entries(t))
	}
	ok, _, err = approveNew(opts, nh, []byte("#!/bin/sh\necho rewritten\n"))
	if !ok || err != nil {
		t.Fatalf("approveNew of the bytes there = %v, %v", ok, err)
	}
	if es := h.entries(t); len(es) != 1 || es[0].ScriptSHA256 == "" {
		t.Fatalf("entries %+v", es)
	}
}
