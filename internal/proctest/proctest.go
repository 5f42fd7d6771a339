// Package proctest holds helpers for tests that check process groups are gone.
//
// It reads /proc and waits on pidfds, so it works on Linux only, and only
// _test.go files import it: a process is known gone when the kernel says
// it exited, never after a sleep.
package proctest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Process is a live member of a process group.
type Process struct {
	Pid  int
	Comm string // the command name from /proc/<pid>/stat
}

func (p Process) String() string { return fmt.Sprintf("%d (%s)", p.Pid, p.Comm) }

// Group lists the processes of group pgid that have not exited, from
// /proc/*/stat. Zombies have exited and are only not yet reaped (a
// container's init may never reap orphans), so they are counted apart.
func Group(pgid int) (alive []Process, zombies int) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited while we looked
		}
		s := string(b)
		// "pid (comm) state ppid pgrp ...": comm may hold spaces or
		// parentheses, so the fields are counted after the last ')'.
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 3 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		if f[0] == "Z" || f[0] == "X" {
			zombies++
			continue
		}
		alive = append(alive, Process{Pid: pid, Comm: s[open+1 : end]})
	}
	return alive, zombies
}

// Exited reports whether process pid has exited, waiting at most bound for
// it. It waits on the exit itself (the process's pidfd becomes readable),
// so a SIGKILL that is still landing is not mistaken for a survivor. A pid
// that no longer exists has exited.
func Exited(t testing.TB, pid int, bound time.Duration) bool {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true
	}
	if errors.Is(err, unix.ENOSYS) {
		t.Skipf("pidfd_open unsupported by this kernel: %v", err)
	}
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	// poll takes milliseconds, and a negative timeout would mean forever.
	ms := int(max(bound, 0).Milliseconds())
	for {
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			t.Fatalf("poll on the pidfd of %d: %v", pid, err)
		}
		return n > 0
	}
}

// WaitGroupGone fails t unless every process of group pgid exits within
// bound (a kill lands quickly but not synchronously), and then kills what
// is left so that it does not outlive the test. It returns how many zombies
// of the group there were at the end.
func WaitGroupGone(t testing.TB, pgid int, bound time.Duration) (zombies int) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		alive, zombies := Group(pgid)
		if len(alive) == 0 {
			return zombies
		}
		for _, p := range alive {
			if !Exited(t, p.Pid, time.Until(deadline)) {
				alive, zombies = Group(pgid)
				t.Errorf("process group %d still has live processes after %v: %v", pgid, bound, alive)
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
				return zombies
			}
		}
		// Every member seen has exited; look again for any it forked
		// before the kill reached it.
	}
}

// Land writes the linker's output at path again in one write, as make
// build and make install do (the Makefile's land): a binary the linker
// wrote through its memory map, a page at a time, starts about 0.4–2 ms
// slower until the kernel drops it from the cache, and tests and
// benchmarks must run a program as it is installed.
func Land(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path+".new", data, 0o755); err != nil {
		return err
	}
	return os.Rename(path+".new", path)
}
