package audit

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Key names a hook in the log: its event, kind and command (shell) or
// name (gateway).
type Key struct {
	Event string
	Kind  string
	Hook  string
}

// KeyOf is the line's hook.
func KeyOf(l *Line) Key { return Key{Event: l.Event, Kind: l.Kind, Hook: l.Hook()} }

// HookStats sums up one hook's lines.
type HookStats struct {
	Key
	// Runs counts the lines whose hook ran (refused and skipped ones did
	// not); the durations are theirs.
	Runs, Blocks, Modifies, Approvals, Contexts int
	// Failures: spawn errors, timeouts and non-zero exits (or signal
	// deaths) that carried no answer. Timeouts are also counted alone.
	Failures, Timeouts, Refusals int
	P50, P95, Max                float64
	// LastRun is the time of the last run (zero: none).
	LastRun time.Time
	// Times are the runs' times, oldest first as read (for a chart).
	Times     []time.Time
	durations []float64
}

// Stats adds lines up per hook.
type Stats struct {
	byKey map[Key]*HookStats
}

// NewStats starts an empty sum.
func NewStats() *Stats { return &Stats{byKey: map[Key]*HookStats{}} }

// Add counts one line.
func (s *Stats) Add(l *Line) {
	k := KeyOf(l)
	h := s.byKey[k]
	if h == nil {
		h = &HookStats{Key: k}
		s.byKey[k] = h
	}
	switch l.Outcome() {
	case OutcomeRefused:
		h.Refusals++
	case OutcomeBlock:
		h.Blocks++
	case OutcomeModify:
		h.Modifies++
	case OutcomeApprove:
		h.Approvals++
	case OutcomeContext:
		h.Contexts++
	case OutcomeTimeout:
		h.Timeouts++
		h.Failures++
	case OutcomeFailed:
		h.Failures++
	}
	if !l.Ran() {
		return
	}
	h.Runs++
	h.durations = append(h.durations, l.Elapsed)
	h.Times = append(h.Times, l.Time)
	if l.Time.After(h.LastRun) {
		h.LastRun = l.Time
	}
}

// Hooks returns every hook seen, sorted by event, kind and hook, with its
// percentiles worked out.
func (s *Stats) Hooks() []*HookStats {
	out := make([]*HookStats, 0, len(s.byKey))
	for _, h := range s.byKey {
		if len(h.durations) > 0 {
			d := slices.Clone(h.durations)
			slices.Sort(d)
			h.P50, h.P95, h.Max = percentile(d, 50), percentile(d, 95), d[len(d)-1]
		}
		out = append(out, h)
	}
	slices.SortFunc(out, func(a, b *HookStats) int {
		return cmp.Or(cmp.Compare(a.Event, b.Event), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Hook, b.Hook))
	})
	return out
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

// Buckets counts times into n equal spans of [from, to] (a time outside
// is left out), for a chart of runs over time.
func Buckets(times []time.Time, from, to time.Time, n int) []int {
	out := make([]int, n)
	span := to.Sub(from)
	if n == 0 || span <= 0 {
		return out
	}
	for _, t := range times {
		if t.Before(from) || t.After(to) {
			continue
		}
		i := int(float64(t.Sub(from)) / float64(span) * float64(n))
		out[min(i, n-1)]++
	}
	return out
}

// Latest is the last run and the last refusal of a hook (nil: none).
type Latest struct {
	Run, Refusal *Line
}

// LatestOf reads the log at path and returns, per hook, the last run and
// the last refusal among the lines at or after since that want accepts:
// what doctor says of a protected hook (never ran since it was protected;
// refused last at …).
func LatestOf(path string, since time.Time, want func(*Line) bool) (map[Key]Latest, []Skipped, error) {
	out := map[Key]Latest{}
	skipped, err := ReadAll(path, func(l Line) error {
		if l.Time.Before(since) {
			return nil
		}
		if !want(&l) {
			return nil
		}
		k := KeyOf(&l)
		cur := out[k]
		switch {
		case l.Outcome() == OutcomeRefused:
			if cur.Refusal == nil || !l.Time.Before(cur.Refusal.Time) {
				cur.Refusal = &l
			}
		case l.Ran():
			if cur.Run == nil || !l.Time.Before(cur.Run.Time) {
				cur.Run = &l
			}
		}
		out[k] = cur
		return nil
	})
	return out, skipped, err
}
