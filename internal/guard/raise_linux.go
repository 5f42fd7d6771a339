package guard

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// groupSignals are what a terminal or a supervisor sends a whole process
// group to end it.
var groupSignals = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// outliveGroupSignals sets groupSignals to be ignored, with raw
// sigaction behind the runtime's back: os/signal's Notify costs about
// 0.5 ms of CPU at start (its goroutine and a signal mask on every
// thread), a third of the guard's own work. The runtime still counts these
// signals as its own, so a forked child resets them to the default
// (clearSignalHandlers) before exec.
func outliveGroupSignals() {
	act := [4]uint64{1} // SIG_IGN
	for _, sig := range groupSignals {
		unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	}
}

// raise ends the guard by sig, as the hook ended (SPEC §17 item 3), with
// the default disposition: the Go runtime's own handler would print a
// goroutine dump for SIGQUIT or SIGABRT, or exit 2 instead of dying.
func raise(sig syscall.Signal) {
	// struct kernel_sigaction: handler, flags, restorer, mask. SIG_DFL is 0.
	var act [4]uint64
	unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(int(sig)-1)/64] |= 1 << ((uint(sig) - 1) % 64)
	unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_UNBLOCK, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0)
	unix.Kill(unix.Getpid(), sig)
	// A signal whose default is to be ignored cannot end a process; the
	// hook did not die of one. Block until the kernel delivers it.
	for {
		unix.Pause()
	}
}
