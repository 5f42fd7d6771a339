package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// typedCommand is the command to match and record for a hook's command
// given on the command line (SPEC §28 item 1): typed itself when a hook is
// named by it as it is, else the configured command it names once a leading
// "~" or "${HOME}" is expanded on both sides — the shell expands an unquoted
// "~" before hermes sees it — when exactly one (event, command) entry
// matches (a command that takes no --event serves every event's entry of
// one configured command). Other ambiguities are a usage error naming them; no match
// leaves typed as it is, for the command's own "not configured" message.
//
// Every command taking a hook's command calls this first (accept, revoke,
// diff, delete, protect, unprotect, --only, --skip, and edit, disable,
// enable). eventFlag is "--event" when the command takes one (it is named
// in the hint), else "".
func typedCommand(specs []hookspec.Spec, typed, event, home, eventFlag string) (string, error) {
	exact, found, configured := hookspec.Typed(specs, typed, event, home)
	switch {
	case exact || len(found) == 0:
		return typed, nil
	case len(found) == 1:
		return configured[0], nil
	case eventFlag == "" && !slices.ContainsFunc(configured, func(c string) bool { return c != configured[0] }):
		// One command under several events, and a command (revoke,
		// protect, --only) that takes no --event: it serves each event's
		// entry, as the configured string itself would.
		return configured[0], nil
	}
	var names []string
	for i, s := range found {
		names = append(names, fmt.Sprintf("%s %q", s.Event, configured[i]))
	}
	hint := "give the command exactly as written in the config, quoted"
	if eventFlag != "" {
		hint += ", or choose one with " + eventFlag
	}
	return "", usageErrorf("%q names %d configured hooks once ~ is expanded (%s): %s",
		typed, len(found), strings.Join(names, ", "), hint)
}
