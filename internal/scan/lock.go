package scan

import "github.com/hermes-hooks/hermes/internal/lockfile"

// Lock is the scan as the lock records it (SPEC §20's format, a scan
// section): each hook without its line, with its code's hashes.
func (r *Result) Lock() *lockfile.ScanSection {
	s := &lockfile.ScanSection{Hooks: []lockfile.ScanHook{}}
	for _, h := range r.Hooks {
		lh := lockfile.ScanHook{Agent: h.Agent, File: h.File, Event: h.Event, Matcher: h.Matcher, Command: h.Command,
			Code: []lockfile.ScanCode{}}
		for _, c := range h.Code {
			lh.Code = append(lh.Code, lockfile.ScanCode{Path: c.Path, SHA256: c.SHA256, System: c.System})
		}
		s.Hooks = append(s.Hooks, lh)
	}
	return s
}
