// Command hermes-guard runs a protected hook for the Hermes agent only when
// its script is still the one approved (SPEC §17): the agent runs
// `hermes-guard --event E [--fail-closed] -- COMMAND…` in place of the
// hook. `hermes hooks protect` writes that command; see docs/guide.md.
package main

import (
	"os"

	"github.com/hermes-hooks/hermes/internal/guard"
)

func main() { os.Exit(guard.Main(os.Args)) }
