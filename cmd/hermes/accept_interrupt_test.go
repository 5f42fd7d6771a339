package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStressInterruptAcceptAll: SIGTERM or SIGINT while accept --all --yes
// saves the snapshots of many scripts ends it with exit 130 and records
// nothing: no allowlist, no temporary file in the snapshot folder. The
// signal is sent once hermes has made that folder (inotify), in the
// saving, not a sleep later. Before, the saving did not look at the
// interrupt: a SIGTERM'd accept of 100,000 scripts ran on for minutes.
func TestStressInterruptAcceptAll(t *testing.T) {
	bin := buildHermes(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		h := newStressHome(t, bin)
		n := stressSize(20000, 1500)
		h.writeConfig("pre_tool_call", 0, h.writeHooks("many", n)...)
		// The event: hermes made the snapshot folder, to save the first.
		snapshots := filepath.Join(h.home, "shell-hooks-snapshots")
		saving := func() bool { _, err := os.Stat(snapshots); return err == nil }
		cmd := h.command("hooks", "accept", "--all", "--yes")
		stdout, stderr := signalWhen(t, cmd, h.home, unix.IN_CREATE, saving, sig, "saving")
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v during accept --all: exit %d, want 130:\n%.500s\n%s", sig, code, stdout, stderr)
		}
		if data, err := os.ReadFile(h.allowlistPath()); err == nil && bytes.Contains(data, []byte(`"command"`)) {
			t.Errorf("%v: approvals recorded:\n%.300s", sig, data)
		}
		entries, _ := os.ReadDir(snapshots)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("%v: temporary file %s left", sig, e.Name())
			}
		}
		// The saving stopped at the signal: it came with the folder, before
		// the first of n files was written, and the renames come last.
		if len(entries) > n/2 {
			t.Errorf("%v: %d of %d snapshots saved after the signal", sig, len(entries), n)
		}
		t.Logf("%v during accept --all: exit %d, %d snapshots kept", sig, cmd.ProcessState.ExitCode(), len(entries))
	}
}
