package audit

import (
	"slices"
	"strings"
	"time"
)

// Filter selects lines for log and stats; a zero field selects all.
type Filter struct {
	Event string
	// Hook is a shell hook's command as written (for a line written by the
	// guard, the command it wraps matches too) or a gateway hook's name.
	Hook     string
	Since    time.Time
	Outcomes []string
}

// Match reports whether l is selected.
func (f *Filter) Match(l *Line) bool {
	if f.Event != "" && l.Event != f.Event {
		return false
	}
	if f.Hook != "" && l.Hook() != f.Hook && !(l.Via == ViaExec && wrapped(l.Command) == f.Hook) {
		return false
	}
	if !f.Since.IsZero() && l.Time.Before(f.Since) {
		return false
	}
	return len(f.Outcomes) == 0 || slices.Contains(f.Outcomes, l.Outcome())
}

// wrapped is the command behind a guard's "--" (SPEC §17), "" if none.
func wrapped(command string) string {
	if _, inner, ok := strings.Cut(command, " -- "); ok {
		return inner
	}
	return ""
}
