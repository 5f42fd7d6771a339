package guard

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

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
