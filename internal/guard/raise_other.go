//go:build !linux

package guard

import (
	"os"
	"os/signal"
	"syscall"
)

// outliveGroupSignals ignores the signals a terminal or a supervisor sends
// a whole process group, once the hook runs.
func outliveGroupSignals() {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
}

// raise ends the guard by sig, as the hook ended.
func raise(sig syscall.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	select {}
}
