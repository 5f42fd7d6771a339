//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestLogInterruptWhileOutputBlocked: log and log --follow write into a
// pipe nobody reads until it is full, then get SIGINT or SIGTERM; each must
// exit 130 (SPEC §29 item 7). Before, the blocked write ignored the signal
// for ever. The wait for the exit has a deadline far above the 1 s the spec
// allows, which only a hang exceeds.
func TestLogInterruptWhileOutputBlocked(t *testing.T) {
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	for i := range 3000 {
		appendRanLine(t, hermesHome, fmt.Sprintf("~/hook-%04d.sh", i))
	}
	for _, follow := range []bool{false, true} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			args := []string{"hooks", "log"}
			if follow {
				args = append(args, "--follow")
			}
			t.Run(fmt.Sprintf("follow=%v/%v", follow, sig), func(t *testing.T) {
				cmd := hermesCmd(t, home, args...)
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				cmd.Stdout = w
				var stderr strings.Builder
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				w.Close()
				defer cmd.Process.Kill()
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				// The event: the pipe is full (TIOCINQ is FIONREAD: the bytes
				// waiting in it; nothing reads them), so hermes is
				// blocked writing.
				size, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
				if err != nil {
					t.Fatal(err)
				}
				fillDeadline := time.After(30 * time.Second)
				for {
					n, err := unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
					if err != nil {
						t.Fatal(err)
					}
					// Full: a line does not fit in what is left (a pipe
					// fills a page at a time; our lines are far shorter).
					if n > size-4096 {
						break
					}
					select {
					case err := <-done:
						t.Fatalf("log ended (%v) before filling the pipe (%d of %d bytes)\n%s", err, n, size, stderr.String())
					case <-time.After(time.Millisecond): // polling the pipe's fill
					case <-fillDeadline:
						t.Fatalf("the pipe never filled (%d of %d bytes)", n, size)
					}
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				select {
				case err := <-done:
					var exit *exec.ExitError
					if !errors.As(err, &exit) || exit.ExitCode() != 130 {
						t.Fatalf("after %v with stdout blocked: %v, want exit 130\n%s", sig, err, stderr.String())
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("still running 20 s after %v with stdout blocked", sig)
				}
			})
		}
	}
}
