//go:build !linux

package guard

import (
	"os"
	"os/signal"
	"syscall"
)

// raise ends the guard by sig, as the hook ended.
func raise(sig syscall.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig)
	select {}
}
