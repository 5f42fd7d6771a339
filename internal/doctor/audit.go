package doctor

import (
	"fmt"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// Guarded is a protected hook as doctor asks the audit log about it: its
// event, the commands the guard's lines may name it by (as written and as
// expanded), and since when it is protected (zero: ever).
type Guarded struct {
	Event    string
	Commands []string
	Since    time.Time
}

// AuditCheckName is the doctor check that reads the audit log.
const AuditCheckName = "audit"

// GuardedChecks reads the audit log of home once and says, per guarded
// hook (in order), whether the agent ran it through the guard since it was
// protected — "never ran since it was protected" is info: a hook the agent
// never registered, or an event that never came — and when the guard last
// refused it (warn, with the reason). Unreadable lines are counted in the
// second result.
func GuardedChecks(home string, hooks []Guarded) ([][]Check, int, error) {
	want := map[audit.Key]bool{}
	for _, h := range hooks {
		for _, c := range h.Commands {
			want[audit.Key{Event: h.Event, Kind: "shell", Hook: audit.HookName(c)}] = true
		}
	}
	// Only the agent's runs count: run-event and test fire a protected hook
	// through its guard too, but say so in via.
	latest, skipped, err := audit.LatestOf(audit.Path(home), time.Time{}, func(l *audit.Line) bool {
		return l.Via == audit.ViaExec && want[audit.KeyOf(l)]
	})
	if err != nil {
		return nil, 0, err
	}
	unreadable := 0
	for _, s := range skipped {
		unreadable += s.Lines
	}
	out := make([][]Check, len(hooks))
	for i, h := range hooks {
		var run, refusal *audit.Line
		for _, c := range h.Commands {
			l := latest[audit.Key{Event: h.Event, Kind: "shell", Hook: audit.HookName(c)}]
			if r := l.Run; r != nil && !r.Time.Before(h.Since) && (run == nil || r.Time.After(run.Time)) {
				run = r
			}
			if r := l.Refusal; r != nil && !r.Time.Before(h.Since) && (refusal == nil || r.Time.After(refusal.Time)) {
				refusal = r
			}
		}
		if run == nil {
			since := "in the audit log"
			if !h.Since.IsZero() {
				since = "since " + h.Since.UTC().Format(time.RFC3339)
			}
			out[i] = append(out[i], Check{AuditCheckName, CheckInfo, fmt.Sprintf(
				"never ran since it was protected (no run through the guard %s): the agent has not fired it, or has not registered it (restart the agent after protect)", since)})
		} else {
			out[i] = append(out[i], Check{AuditCheckName, CheckOK, fmt.Sprintf("last ran through the guard at %s (%s); see: hermes hooks log --hook <command>",
				run.Time.UTC().Format(time.RFC3339), run.Outcome())})
		}
		if refusal != nil {
			out[i] = append(out[i], Check{AuditCheckName, CheckWarn, fmt.Sprintf("the guard last refused it at %s: %s",
				refusal.Time.UTC().Format(time.RFC3339), refusal.Refusal)})
		}
	}
	return out, unreadable, nil
}
