package guard

import (
	"fmt"
	"sort"
	"strings"
)

// Dialect translates between the agent and a hook written for another
// tool (SPEC §19: `--dialect claude`): the payload before the hook runs,
// its answer after. A dialect sees the Invocation, so its own flags
// (--project-dir, --if) reach it through Invocation.Extra.
type Dialect interface {
	// Input turns the payload the agent wrote on stdin into what the hook
	// reads. run, false: the hook is not run at all (for example an --if
	// rule that does not match), and Answer is asked with no output.
	Input(inv Invocation, payload []byte) (stdin []byte, run bool, err error)
	// Answer turns what the hook printed and how it exited into what the
	// agent reads: the stdout to relay and the exit code to end with.
	// stdout holds at most judgeLimit bytes (truncated says more came).
	Answer(inv Invocation, stdout []byte, truncated bool, exitCode int) (out []byte, code int)
}

// dialects are the dialects the guard knows, by --dialect name.
var dialects = map[string]Dialect{}

// RegisterDialect makes a dialect available to --dialect name; called from
// an init function of the package that implements it (imported by
// cmd/hermes-guard).
func RegisterDialect(name string, d Dialect) { dialects[name] = d }

// dialectOf is the invocation's dialect, nil for none.
func dialectOf(inv Invocation) (Dialect, error) {
	name, ok := inv.Extra["--dialect"]
	if !ok {
		return nil, nil
	}
	if d, ok := dialects[name]; ok {
		return d, nil
	}
	known := make([]string, 0, len(dialects))
	for n := range dialects {
		known = append(known, n)
	}
	sort.Strings(known)
	return nil, fmt.Errorf("unknown --dialect %q (known: %s)", name, strings.Join(known, ", "))
}
