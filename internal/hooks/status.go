package hooks

import (
	"errors"
	"path/filepath"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// ShellHook is a configured shell hook with everything known about it now:
// its argv and script, whether the script can run, its approval and drift.
type ShellHook struct {
	Spec
	Argv     []string
	ParseErr error // the command cannot be tokenised
	// Script is the resolved script path ("" when the command cannot be
	// parsed); FirstWord says it is run directly (needs the execute bit).
	Script    string
	FirstWord bool
	ExecErr   error // nil when the script exists and can run

	Approved    bool
	Approval    allowlist.Entry
	Fingerprint allowlist.Fingerprint
	Drift       allowlist.Drift // "" when not approved
	// Pinned: the approval recorded a sha256 and pinning is on.
	Pinned bool
}

// Trusted reports whether run-event would fire the hook off a terminal
// without asking: approved, and not stopped by pinning.
func (h *ShellHook) Trusted() bool { return h.Approved && !h.Blocked() }

// Blocked reports whether pinning stops this approved hook: its approval
// recorded a hash and the script no longer has it.
func (h *ShellHook) Blocked() bool {
	return h.Approved && h.Pinned && h.Drift == allowlist.DriftModified
}

// Inspect resolves one spec against the allowlist (list may be nil).
func (s *Setup) Inspect(spec Spec, list *allowlist.List) ShellHook {
	h := ShellHook{Spec: spec}
	h.Argv, h.ParseErr = shell.Argv(spec.Command, s.UserHome)
	var pe *shell.ParseError
	if errors.As(h.ParseErr, &pe) && spec.Written != "" {
		// Named as written: the expansion may hold a secret (rule 11).
		h.ParseErr = &shell.ParseError{Command: spec.Shown(), Reason: pe.Reason}
	}
	if h.ParseErr == nil {
		h.Script, h.FirstWord = shell.ResolveScript(h.Argv, s.UserHome)
		h.ExecErr = shell.CheckExecutable(h.Script, h.FirstWord)
	} else {
		h.ExecErr = h.ParseErr
	}
	if list != nil {
		h.Approval, h.Approved = list.Find(spec.Event, spec.Command)
	}
	if h.Approved {
		h.Fingerprint = allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}
		if h.hasScriptFile() {
			h.Fingerprint = s.Fingerprints.Of(h.Script)
		}
		h.Drift = allowlist.DriftOf(h.Approval, h.Fingerprint)
		h.Pinned = s.Config.Settings.PinScripts && h.Approval.ScriptSHA256 != ""
	}
	return h
}

// hasScriptFile reports whether the hook's script is a path that can be
// fingerprinted. A command that cannot be parsed has none, and a bare word
// PATH did not resolve is not a file of ours: reading it relative to the
// current directory could hash an unrelated file.
func (h *ShellHook) hasScriptFile() bool {
	return h.ParseErr == nil && filepath.IsAbs(h.Script)
}

// ShellHooks inspects every configured shell hook, in config order.
func (s *Setup) ShellHooks(list *allowlist.List) []ShellHook {
	out := make([]ShellHook, 0, len(s.Parsed.Specs))
	for _, spec := range s.Parsed.Specs {
		out = append(out, s.Inspect(spec, list))
	}
	return out
}
