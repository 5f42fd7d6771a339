package hooks

import (
	"fmt"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// Approve records approvals for hooks in one locked update of the
// allowlist: for each, the script's sha256 and mtime now, and a snapshot of
// the script so a later change can be shown as a diff. It returns the
// entries written and the allowlist's warnings. via is one of the
// allowlist.Via* values.
func (s *Setup) Approve(hs []ShellHook, via string, now time.Time) ([]allowlist.Entry, []string, error) {
	entries := make([]allowlist.Entry, 0, len(hs))
	for _, h := range hs {
		fp := allowlist.Fingerprint{Err: allowlist.ErrNoScript}
		if h.Script != "" {
			// Fresh, not cached: the approval must record what is there now.
			fp = allowlist.NewFingerprinter().Of(h.Script)
		}
		if fp.Err == nil {
			if err := allowlist.SaveSnapshot(s.Loc.Home, fp); err != nil {
				return nil, nil, fmt.Errorf("saving a snapshot of %s: %w", h.Script, err)
			}
		}
		entries = append(entries, allowlist.NewEntry(h.Event, h.Command, via, fp, now))
	}
	warnings, err := s.Store.Update(func(l *allowlist.List) error {
		for _, e := range entries {
			l.Approve(e)
		}
		return nil
	})
	if err != nil {
		return nil, warnings, err
	}
	return entries, warnings, nil
}
