package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// smallHeap is how much hermes allocates before its first garbage
// collection. Nearly every run (version, list of a few hundred hooks,
// run-event) allocates less and exits: collecting would only cost time.
const smallHeap = 32 << 20

// tuneGC turns the collector off until the heap reaches smallHeap (a
// memory limit makes the runtime collect there), then back to the default
// (GOGC=100, no limit) for the rest of a big run, so the live heap of a
// 10,000-hook list never makes the limit collect continuously and a hook
// printing 1 GiB keeps hermes small (SPEC §12). GOGC or GOMEMLIMIT in the
// environment are obeyed instead.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(smallHeap)
	// The finalizer of an unreachable object runs after the first
	// collection: then the heap is no longer small.
	sentinel := new([64]byte)
	runtime.SetFinalizer(sentinel, func(*[64]byte) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
