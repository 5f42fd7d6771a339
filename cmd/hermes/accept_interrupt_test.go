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
		in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			t.Skipf("needs inotify to know hermes is saving: %v", err)
		}
		if _, err := unix.InotifyAddWatch(in, h.home, unix.IN_CREATE); err != nil {
			unix.Close(in)
			t.Skipf("needs inotify to know hermes is saving: %v", err)
		}
		cmd := h.command("hooks", "accept", "--all", "--yes")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		snapshots := filepath.Join(h.home, "shell-hooks-snapshots")
		for saving := false; !saving; {
			select {
			case <-exited:
				unix.Close(in)
				t.Fatalf("%v: hermes exited %d before it saved a snapshot:\n%.500s\n%s", sig, cmd.ProcessState.ExitCode(), &stdout, &stderr)
			default:
			}
			// Waits for the event (or 100 ms, to look at the process again).
			if n, _ := unix.Poll([]unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}, 100); n > 0 {
				buf := make([]byte, 4096)
				unix.Read(in, buf)
			}
			_, err := os.Stat(snapshots)
			saving = err == nil
		}
		unix.Close(in)
		if err := cmd.Process.Signal(sig); err != nil {
			<-exited
			t.Fatalf("%v: %v; hermes exited %d", sig, err, cmd.ProcessState.ExitCode())
		}
		<-exited
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v during accept --all: exit %d, want 130:\n%.500s\n%s", sig, code, &stdout, &stderr)
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
