package hooks

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/lockfile"
)

// LockEntry is the lock's entry for a hook as it is now (SPEC §20): the
// command as written, the script relative to HERMES_HOME when inside it,
// the script's sha256 read now.
func (s *Setup) LockEntry(h ShellHook) lockfile.ShellHook {
	e := lockfile.ShellHook{Event: h.Event, Command: h.Shown()}
	if m := h.MatcherText(); m != "" {
		e.Matcher = &m
	}
	if h.ParseErr == nil && h.Script != "" {
		script := s.relToHome(h.Script)
		e.Script = &script
	}
	if h.HasScriptFile() {
		if fp := s.Fingerprints.Of(h.Script); fp.Err == nil {
			sum := fp.SHA256
			e.SHA256 = &sum
		}
	}
	return e
}

// relToHome is path relative to HERMES_HOME when it is inside it, else as
// it is: a lock made in one checkout reads the same in another.
func (s *Setup) relToHome(path string) string {
	rel, err := filepath.Rel(s.Loc.Home, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return path
	}
	return filepath.ToSlash(rel)
}

// Lock is the lock of the home as it is now: every shell hook, every
// gateway hook folder's files, every outbound webhook, sorted as the file
// holds them. An unreadable gateway file is an error: a lock that skipped
// it would let it change unseen.
func (s *Setup) Lock() (*lockfile.Lock, error) {
	l := &lockfile.Lock{Version: lockfile.Version}
	for _, h := range s.ShellHooks(nil) {
		l.ShellHooks = append(l.ShellHooks, s.LockEntry(h))
	}
	for _, h := range s.InspectAll(s.Parsed.Disabled, nil) {
		e := s.LockEntry(h)
		e.Disabled = true // recorded: switching it back on is a difference (SPEC §27)
		l.ShellHooks = append(l.ShellHooks, e)
	}
	for _, g := range s.GatewayHooks() {
		files, err := lockfile.HashDir(g.Dir)
		if err != nil {
			return nil, fmt.Errorf("gateway hook %s: hashing its files: %w (fix the permissions so the lock can cover it)", g.Name, err)
		}
		l.GatewayHooks = append(l.GatewayHooks, lockfile.GatewayHook{Name: g.Name, Files: files})
	}
	for _, w := range s.Parsed.Webhooks {
		l.OutboundWebhooks = append(l.OutboundWebhooks, lockfile.Webhook{URL: w.Shown, Events: append([]string{}, w.Events...)})
	}
	l.Sort()
	return l, nil
}
