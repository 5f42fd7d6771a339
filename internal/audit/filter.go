package audit

import (
	"slices"
	"strings"
	"time"
)

// Filter selects lines for log and stats; a zero field selects all.
type Filter struct {
	Event string
	// Hooks are the names a hook may have in the log, any of which
	// selects a line: a shell hook's command (as written, as expanded) or a
	// gateway hook's name. The command behind a guard's "--" matches too.
	Hooks    []string
	Since    time.Time
	Outcomes []string
}

// Match reports whether l is selected.
func (f *Filter) Match(l *Line) bool {
	if f.Event != "" && l.Event != f.Event {
		return false
	}
	if len(f.Hooks) > 0 && !slices.Contains(f.Hooks, l.Hook()) && !slices.Contains(f.Hooks, wrapped(l.Command)) {
		return false
	}
	if !f.Since.IsZero() && l.Time.Before(f.Since) {
		return false
	}
	return len(f.Outcomes) == 0 || slices.Contains(f.Outcomes, l.Outcome())
}

// wrapped is the command behind a guard's "--" (SPEC §17: `<guard> --event
// E [--fail-closed] -- COMMAND`), "" if none.
func wrapped(command string) string {
	if head, inner, ok := strings.Cut(command, " -- "); ok && strings.Contains(head, " --event ") {
		return inner
	}
	return ""
}
