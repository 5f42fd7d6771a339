package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/safepath"
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
	// Refusal, when not "", says why the hook must never run as it is
	// written, whatever was approved (SPEC §13.1): the file hashed would
	// not be the file run.
	Refusal string

	Approved    bool
	Approval    allowlist.Entry
	Fingerprint allowlist.Fingerprint
	Drift       allowlist.Drift // "" when not approved
	// Pinned: pinning is on and the approval recorded a sha256 or was
	// written by this tool (which always pins; SPEC §13.3).
	Pinned bool
	// Unsafe, when not nil, names who else could change the script (SPEC
	// §13.5); checked only for pinned approvals with hooks_strict_modes on.
	Unsafe error
}

// Trusted reports whether run-event would fire the hook off a terminal
// without asking: approved, not stopped by pinning, nobody else can change
// its script, and it can be run as written.
func (h *ShellHook) Trusted() bool {
	return h.Approved && !h.Blocked() && h.Unsafe == nil && h.Refusal == ""
}

// Blocked reports whether pinning stops this approved hook: the script is
// not the one approved (modified), or cannot be hashed to tell (missing).
func (h *ShellHook) Blocked() bool {
	// An approval this tool made without a hash (there was no script to
	// hash) stays trusted while there is still none: it cannot start, and a
	// fail-closed guard blocks. A script appearing there is modified.
	missing := h.Drift == allowlist.DriftMissing && h.Approval.Pinned()
	return h.Approved && h.Pinned && (h.Drift == allowlist.DriftModified || missing)
}

// Why a hook did not fire in run-event (SPEC §10.4, §13).
const (
	SkipMatcher     = "matcher"
	SkipNotApproved = "not approved"
	SkipModified    = "modified since approval"
	SkipUnreadable  = "script cannot be read since approval"
	SkipSafeMode    = "safe mode"
	// SkipApprovalFailed: consent was given but the approval could not be
	// recorded (disk full, I/O error); a fail-closed guard then blocks.
	SkipApprovalFailed = "approval could not be recorded"
)

// SkipReason is why run-event would not fire the hook without consent, ""
// when it is trusted: its refusal, pinning, who else can change its script,
// or simply no approval.
func (h *ShellHook) SkipReason() string {
	switch {
	case h.Refusal != "":
		return h.Refusal
	case h.Blocked() && h.Drift == allowlist.DriftMissing:
		return SkipUnreadable
	case h.Blocked():
		return SkipModified
	case h.Approved && h.Unsafe != nil:
		return "someone else can change the script: " + h.Unsafe.Error()
	case !h.Approved:
		return SkipNotApproved
	}
	return ""
}

// Inspect resolves one spec against the allowlist (list may be nil), with
// the invocation's caches of hashes and path checks: for display (list,
// diff, the checklist), never to decide whether to run a hook (InspectNow).
func (s *Setup) Inspect(spec Spec, list *allowlist.List) ShellHook {
	return s.inspect(spec, list, probes{s.Fingerprints.Of, s.safePaths(), s.checkExecutable})
}

// InspectNow is the one decision whether a hook may run now (SPEC §13): the
// hook as Inspect sees it, but with its script hashed and its path checked
// at this moment, from no cache. run-event, test, doctor and the policy
// cases all decide through it.
func (s *Setup) InspectNow(spec Spec, list *allowlist.List) ShellHook {
	return s.inspect(spec, list, probes{allowlist.FingerprintNow, safepath.New(os.Getuid()), shell.CheckExecutable})
}

// probes are how inspect looks at the files a hook names: cached for the
// invocation (Inspect) or asked now (InspectNow).
type probes struct {
	fingerprint func(path string) allowlist.Fingerprint
	paths       *safepath.Checker
	executable  func(path string, firstWord bool) error
}

func (s *Setup) inspect(spec Spec, list *allowlist.List, look probes) ShellHook {
	h := ShellHook{Spec: spec}
	h.Argv, h.ParseErr = shell.Argv(spec.Command, s.UserHome)
	var pe *shell.ParseError
	if errors.As(h.ParseErr, &pe) && spec.Written != "" {
		// Named as written: the expansion may hold a secret (rule 11).
		h.ParseErr = &shell.ParseError{Command: spec.Shown(), Reason: pe.Reason}
	}
	if h.ParseErr == nil {
		h.Script, h.FirstWord = shell.ResolveScript(h.Argv)
		h.ExecErr = look.executable(h.Script, h.FirstWord)
		h.Refusal = tildeRefusal(shell.TildeScript(h.Argv))
	} else {
		h.ExecErr = h.ParseErr
	}
	if list != nil {
		h.Approval, h.Approved = list.Find(spec.Event, spec.Command)
	}
	if !h.Approved {
		return h
	}
	h.Fingerprint = allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}
	if h.hasScriptFile() {
		h.Fingerprint = look.fingerprint(h.Script)
	}
	h.Drift = allowlist.DriftOf(h.Approval, h.Fingerprint)
	ours := h.Approval.ApprovedVia != ""
	h.Pinned = s.Config.Settings.PinScripts && (h.Approval.Pinned() || ours)
	if h.Pinned && !h.Approval.Pinned() && h.Fingerprint.Err == nil {
		// This tool approved it without a hash, because there was no
		// script to hash then; a script there now is not what was approved.
		h.Drift = allowlist.DriftModified
	}
	if h.Pinned && s.Config.Settings.StrictModes && h.hasScriptFile() && h.Fingerprint.Err == nil {
		h.Unsafe = look.paths.Check(h.Script)
	}
	return h
}

// safePaths is the invocation's cached path checker, for display.
func (s *Setup) safePaths() *safepath.Checker {
	s.pathsOnce.Do(func() { s.paths = safepath.New(os.Getuid()) })
	return s.paths
}

// checkExecutable is shell.CheckExecutable once per (script, how it is
// run) for the invocation: a thousand hooks over ten scripts stat, access
// and read ten #! lines, not a thousand. For display only, like the other
// caches of Inspect.
func (s *Setup) checkExecutable(path string, firstWord bool) error {
	key := execKey{path, firstWord}
	s.execMu.Lock()
	err, done := s.execChecks[key]
	s.execMu.Unlock()
	if done {
		return err
	}
	err = shell.CheckExecutable(path, firstWord)
	s.execMu.Lock()
	if s.execChecks == nil {
		s.execChecks = map[execKey]error{}
	}
	s.execChecks[key] = err
	s.execMu.Unlock()
	return err
}

type execKey struct {
	path      string
	firstWord bool
}

// tildeRefusal explains a script word that starts with "~": it reaches the
// process literally, so the file run would not be the file hashed.
func tildeRefusal(word string) string {
	if word == "" {
		return ""
	}
	rest := strings.TrimPrefix(word, "~")
	suggestion := "${HOME}" + rest
	if rest != "" && !strings.HasPrefix(rest, "/") {
		suggestion = "the full path"
	}
	return fmt.Sprintf("%q would reach the process unexpanded (only a \"~\" at the start of the command is expanded) and name a folder \"~\" in the working directory; write the full path or %s", word, suggestion)
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
	return s.InspectAll(s.Parsed.Specs, list)
}

// InspectAll inspects the hooks of specs (Inspect), in their order.
func (s *Setup) InspectAll(specs []Spec, list *allowlist.List) []ShellHook {
	out := make([]ShellHook, len(specs))
	// Hooks are inspected independently (the caches Inspect uses are safe
	// for concurrent use, and a list with its index built may be searched
	// from many goroutines), so a long config is split over the CPUs; a
	// short one is not worth a goroutine.
	workers := min(runtime.GOMAXPROCS(0), len(specs)/parallelInspectMin)
	if workers < 2 {
		for i, spec := range specs {
			out[i] = s.Inspect(spec, list)
		}
		return out
	}
	if list != nil {
		list.Index() // built here, once: the goroutines only search it
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(specs)/workers, (w+1)*len(specs)/workers
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				out[i] = s.Inspect(specs[i], list)
			}
		})
	}
	wg.Wait()
	return out
}

// parallelInspectMin is how many hooks each goroutine of ShellHooks gets
// at least.
const parallelInspectMin = 64
