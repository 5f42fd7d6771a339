package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/lockfile"
)

// LockEntry is the lock's entry for a hook as it is now (SPEC §20, §23):
// the command as written (a protected hook's inner command), the script
// and its code relative to HERMES_HOME or the checkout when inside them,
// pinned files with their sha256 read now and system files by path only,
// and what guards it: matcher, timeout, fail_closed, the guard's flags.
func (s *Setup) LockEntry(h ShellHook) lockfile.ShellHook {
	e := lockfile.ShellHook{Event: h.Event, Command: h.Named(), Timeout: h.Timeout, FailClosed: h.FailClosed}
	if m := h.MatcherText(); m != "" {
		e.Matcher = &m
	}
	if h.ParseErr == nil && h.Script != "" {
		script := s.relToHome(h.Script)
		e.Script = &script
	}
	if h.ParseErr == nil {
		for _, f := range h.Code.Files {
			cf := lockfile.CodeFile{Path: s.relToHome(f.Path), System: f.System}
			if !f.System {
				cf.SHA256 = s.Fingerprints.Of(f.Path).SHA256
			}
			e.Code = append(e.Code, cf)
		}
		if !h.NoScript && !h.Code.Pinnable {
			f := false
			e.Pinnable = &f
		}
	}
	e.SHA256 = s.ScriptSHA256(&h)
	if h.Guard != nil {
		e.Protected = true
		e.GuardFlags = s.guardFlags(h)
	}
	return e
}

// ScriptSHA256 is the sha256 of h's script as read now (through the
// invocation's cache), as the lock records it: nil when there is no
// script file, when it is a system file of the code, or cannot be read.
func (s *Setup) ScriptSHA256(h *ShellHook) *string {
	if !h.HasScriptFile() {
		return nil
	}
	if h.ParseErr == nil {
		for _, f := range h.Code.Files {
			if f.Path == h.Script && f.System {
				return nil
			}
		}
	}
	fp := s.Fingerprints.Of(h.Script)
	if fp.Err != nil {
		return nil
	}
	return &fp.SHA256
}

// guardFlags are the guard's options of a protected hook, as the lock
// records them: everything between the guard's path and "--", with a
// --project-dir made relative like every path of the lock.
func (s *Setup) guardFlags(h ShellHook) []string {
	flags := []string{"--event", h.Guard.Event}
	if h.Guard.FailClosed {
		flags = append(flags, "--fail-closed")
	}
	for _, name := range []string{"--dialect", "--project-dir", "--if"} {
		if v, ok := h.Guard.Extra[name]; ok {
			if name == "--project-dir" {
				v = s.relToHome(v)
			}
			flags = append(flags, name, v)
		}
	}
	return flags
}

// relToHome is path relative to HERMES_HOME, else to the checkout the
// config lives in, when it is inside one of them; else as it is: a lock
// made in one checkout reads the same in another.
func (s *Setup) relToHome(path string) string {
	if rel, ok := relInside(s.Loc.Home, path); ok {
		return rel
	}
	if root := s.checkout(); root != "" {
		if rel, ok := relInside(root, path); ok {
			return rel
		}
	}
	return path
}

func relInside(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// checkout is the git work tree holding the config file, "" when none:
// looked for once per invocation (`list --json` of 755,000 hooks made four
// lstat calls per hook for it, 27 s).
func (s *Setup) checkout() string {
	s.checkoutOnce.Do(func() { s.checkoutDir = s.findCheckout() })
	return s.checkoutDir
}

func (s *Setup) findCheckout() string {
	if s.Loc == nil || s.Loc.ConfigPath == "" {
		return ""
	}
	for dir := filepath.Dir(s.Loc.ConfigPath); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		if dir == filepath.Dir(dir) {
			return ""
		}
	}
}

// Lock is the lock of the home as it is now: the trust switches, every
// shell hook (disabled ones marked), every gateway hook folder's files,
// every outbound webhook, sorted as the file holds them. An unreadable
// gateway file, or an entry of a hook folder that is not a regular file,
// is an error: a lock that skipped it would let it change unseen.
func (s *Setup) Lock() (*lockfile.Lock, error) {
	set := s.Config.Settings
	l := &lockfile.Lock{Version: lockfile.Version,
		Trust: &lockfile.Trust{PinScripts: set.PinScripts, StrictModes: set.StrictModes, AutoAccept: set.AutoAccept}}
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
			return nil, fmt.Errorf("gateway hook %s: hashing its files: %w (fix it so the lock can cover it)", g.Name, err)
		}
		l.GatewayHooks = append(l.GatewayHooks, lockfile.GatewayHook{Name: g.Name, Files: files})
	}
	for _, w := range s.Parsed.Webhooks {
		l.OutboundWebhooks = append(l.OutboundWebhooks, lockfile.Webhook{URL: w.Shown, Events: append([]string{}, w.Events...)})
	}
	l.Sort()
	return l, nil
}
