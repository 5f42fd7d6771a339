package hooks

import (
	"slices"

	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// Why a hook left out by the user's selection did not fire (run-event
// --json skip_reason).
const (
	SkipNotOnly  = "not selected by --only"
	SkipSelected = "--skip"
	// SkipNoReplay: test --cases does not replay a hook whose entry says
	// replay: false (SPEC §26) unless --replay-all.
	SkipNoReplay = "not replayed (replay: false)"
)

// Selection is the subset of hooks a user asked to fire: --only and --skip,
// each an exact command string as written in the config. The zero value
// selects every hook.
type Selection struct {
	Only []string
	Skip []string
	// Replay: a replay of cases (test --cases), which leaves out the hooks
	// marked replay: false; --only does not bring them back.
	Replay bool
}

// Empty reports whether the selection leaves nothing out.
func (s Selection) Empty() bool { return len(s.Only) == 0 && len(s.Skip) == 0 && !s.Replay }

// SkipReason says why h is left out, "" when it is selected. --skip wins
// over --only for a command given to both; replay: false over both.
func (s Selection) SkipReason(h ShellHook) string {
	switch {
	case s.Replay && h.NoReplay:
		return SkipNoReplay
	case slices.ContainsFunc(s.Skip, h.Names): // either form of the command
		return SkipSelected
	case len(s.Only) > 0 && !slices.ContainsFunc(s.Only, h.Names):
		return SkipNotOnly
	}
	return ""
}

// Excludes reports whether h is left out.
func (s Selection) Excludes(h ShellHook) bool { return s.SkipReason(h) != "" }

// Filter keeps the hooks of hs the selection lets through, in order.
func (s Selection) Filter(hs []ShellHook) []ShellHook {
	var out []ShellHook
	for _, h := range hs {
		if !s.Excludes(h) {
			out = append(out, h)
		}
	}
	return out
}

// Unmatched are the commands given to --only or --skip that name none of
// the hooks configured as specs, in the order given: a typo there would
// otherwise silently fire everything (--skip) or nothing (--only).
func (s Selection) Unmatched(specs []hookspec.Spec) []string {
	var out []string
	for _, c := range slices.Concat(s.Only, s.Skip) {
		known := slices.ContainsFunc(specs, func(sp hookspec.Spec) bool { return sp.Names(c) })
		if !known && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
