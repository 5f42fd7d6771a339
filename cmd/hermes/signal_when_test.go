package main

import (
	"bytes"
	"os/exec"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// signalWhen starts cmd, waits for an inotify event of mask on path after
// which reached() is true (nil: the first event), sends sig, and returns
// once cmd has exited, with its stdout and stderr. what names the moment
// in messages ("in the import"). The test is skipped without inotify and
// fails if cmd exits before the moment.
func signalWhen(t *testing.T, cmd *exec.Cmd, path string, mask uint32, reached func() bool, sig syscall.Signal, what string) (stdout, stderr *bytes.Buffer) {
	t.Helper()
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("needs inotify to know hermes is %s: %v", what, err)
	}
	defer unix.Close(in)
	if _, err := unix.InotifyAddWatch(in, path, mask); err != nil {
		t.Skipf("needs inotify to know hermes is %s: %v", what, err)
	}
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	buf := make([]byte, 4096)
	for there := false; !there; {
		select {
		case <-exited:
			t.Fatalf("%v: hermes exited %d before it was %s:\n%.500s\n%s", sig, cmd.ProcessState.ExitCode(), what, stdout, stderr)
		default:
		}
		// Waits for the event (or 100 ms, to look at the process again).
		if n, _ := unix.Poll([]unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}, 100); n > 0 {
			n, _ := unix.Read(in, buf)
			there = n > 0 && (reached == nil || reached())
		} else if reached != nil {
			there = reached()
		}
	}
	if err := cmd.Process.Signal(sig); err != nil {
		<-exited
		t.Fatalf("%v: %v; hermes exited %d:\n%.500s\n%s", sig, err, cmd.ProcessState.ExitCode(), stdout, stderr)
	}
	<-exited
	return stdout, stderr
}
