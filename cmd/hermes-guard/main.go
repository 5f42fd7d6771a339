// Command hermes-guard runs a protected hook for the Hermes agent only when
// its script is still the one approved (SPEC §17): the agent runs
// `hermes-guard --event E [--fail-closed] -- COMMAND…` in place of the
// hook. `hermes hooks protect` writes that command; see docs/guide.md.

// The guard is a relay that starts on every tool call (SPEC §24 item 10,
// docs/performance.md): it does not read the cgroup files at start to size
// GOMAXPROCS (it sets one P itself), nor re-read them every second.
//
//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0
package main

import (
	"os"
	"runtime"

	"github.com/hermes-hooks/hermes/internal/guard"
)

func main() {
	// One P: the guard relays and waits; a second P only lets the runtime
	// spin a thread looking for work while the hook needs the CPU.
	runtime.GOMAXPROCS(1)
	os.Exit(guard.Main(os.Args))
}
