package hooks

import (
	"errors"
	"os"
	"runtime"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// ShellHook is a configured shell hook with everything known about it now:
// its argv and script, whether the script can run, its approval and drift
// — the trust package's verdict on it.
type ShellHook struct {
	hookspec.Spec
	trust.Verdict
	// Unapprovable, when not "", is why no approval of the hook may be
	// recorded now (trust.Unhashable); set by run-event before it asks
	// consent.
	Unapprovable string
}

// Why a hook did not fire in run-event (SPEC §10.4, §13).
const (
	SkipMatcher = "matcher"
	// SkipMatcherTimeout: the matcher of a fail-closed hook of a blocking
	// event could not decide in time; the hook blocks.
	SkipMatcherTimeout = "matcher timed out"
	SkipNotApproved    = trust.SkipNotApproved
	SkipModified       = trust.SkipModified
	SkipUnreadable     = trust.SkipUnreadable
	SkipSafeMode       = "safe mode"
	// SkipDisabled: the hook is under hooks_disabled: (SPEC §27).
	SkipDisabled = "disabled"
	// SkipApprovalFailed: consent was given but the approval could not be
	// recorded (disk full, I/O error); a fail-closed guard then blocks.
	SkipApprovalFailed = "approval could not be recorded"
)

// Inspect resolves one spec against the allowlist (list may be nil), with
// the invocation's caches of hashes and path checks: for display (list,
// diff, the checklist), never to decide whether to run a hook (InspectNow).
func (s *Setup) Inspect(spec hookspec.Spec, list *allowlist.List) ShellHook {
	return s.inspectWith(spec, list, s.cachedProbes(), s.TrustSettings(), &s.codeMemo)
}

// InspectTo is Inspect writing into *h, for a caller that inspects many
// hooks one at a time without keeping them (list renders each as it goes).
func (s *Setup) InspectTo(h *ShellHook, spec *hookspec.Spec, list *allowlist.List) {
	s.inspectInto(h, spec, list, s.cachedProbes(), s.TrustSettings(), &s.codeMemo)
}

// cachedProbes are the invocation's caches of hashes and path checks,
// made once: each method value is an allocation, and list makes 755,000
// decisions.
func (s *Setup) cachedProbes() trust.Probes {
	s.cachedOnce.Do(func() {
		fingerprint := func(path string) allowlist.Fingerprint { return s.Fingerprints.Of(path) } // the Fingerprinter in place at each call
		s.cached = trust.Probes{Fingerprint: fingerprint, Paths: s.SafePaths(), Executable: s.checkExecutable, Present: s.present}
		s.cachedEnv = s.CodeEnv()
	})
	return s.cached
}

// displayEnv is CodeEnv as display and planning find code with, made
// once with the probes (PATH as first read).
func (s *Setup) displayEnv() code.Env {
	s.cachedProbes()
	return s.cachedEnv
}

// InspectNow is the one decision whether a hook may run now (SPEC §13,
// trust.Decide): the hook as Inspect sees it, but with its script hashed
// and its path checked at this moment, from no cache. run-event, test,
// doctor and the policy cases all decide through it.
func (s *Setup) InspectNow(spec hookspec.Spec, list *allowlist.List) ShellHook {
	return s.InspectWith(spec, list, trust.Now())
}

// CodeEnv is what a hook's code is found with (SPEC §23): the PATH the
// hook runs with (ours: hooks inherit it), HOME and HERMES_HOME.
func (s *Setup) CodeEnv() code.Env {
	env := code.Env{PATH: os.Getenv("PATH"), Home: s.UserHome}
	if s.Loc != nil {
		env.HermesHome = s.Loc.Home
	}
	return env
}

// TrustSettings are the config's trust switches.
func (s *Setup) TrustSettings() trust.Settings {
	return trust.Settings{PinScripts: s.Config.Settings.PinScripts, StrictModes: s.Config.Settings.StrictModes}
}

// InspectWith is Inspect with the given probes (tests and doctor pass
// their own view of the disk).
func (s *Setup) InspectWith(spec hookspec.Spec, list *allowlist.List, look trust.Probes) ShellHook {
	return s.inspectWith(spec, list, look, s.TrustSettings(), nil)
}

// InspectAsGuard is the decision the guard would make on the hook's script
// (pinned, strict), whatever the config's switches: whether protecting it
// keeps it running. It plans protect, it does not run the hook, so it
// looks through the invocation's caches as Inspect does: protect --all of
// 100,000 hooks over one script hashes it, walks its folders and finds its
// code once, not 100,000 times (SPEC §29 item 2); the guard decides again,
// from no cache, at every firing.
func (s *Setup) InspectAsGuard(spec hookspec.Spec, list *allowlist.List) ShellHook {
	return s.inspectWith(spec, list, s.cachedProbes(), guard.Settings, &s.codeMemo)
}

// InspectAsGuardTo is InspectAsGuard into h (a ShellHook is large).
func (s *Setup) InspectAsGuardTo(h *ShellHook, spec *hookspec.Spec, list *allowlist.List) {
	s.inspectInto(h, spec, list, s.cachedProbes(), guard.Settings, &s.codeMemo)
}

// inspectWith decides with look; memo, when not nil, remembers what
// finding the code asked of the disk (display and planning only).
func (s *Setup) inspectWith(spec hookspec.Spec, list *allowlist.List, look trust.Probes, settings trust.Settings, memo *code.Memo) ShellHook {
	var h ShellHook
	s.inspectInto(&h, &spec, list, look, settings, memo)
	return h
}

// inspectInto is inspectWith writing into *h: InspectAll fills its list in
// place (a ShellHook is large; copying each of 755,000 through three
// return values was a second of `list`).
func (s *Setup) inspectInto(h *ShellHook, spec *hookspec.Spec, list *allowlist.List, look trust.Probes, settings trust.Settings, memo *code.Memo) {
	th := trust.Hook{Event: spec.Event, Command: spec.Command, Home: s.UserHome}
	if memo != nil {
		th.CodeEnv = s.displayEnv()
	} else {
		th.CodeEnv = s.CodeEnv()
	}
	if spec.Guard != nil {
		// The guard judges the code it guards, pinned and strictly: so
		// does every command that shows or fires it.
		th = guard.Hook(*spec.Guard, spec.Event, spec.Command, s.UserHome, th.CodeEnv.HermesHome)
		settings = guard.Settings
	}
	th.CodeEnv.Memo = memo
	h.Spec = *spec
	h.Verdict = trust.DecideWith(list, th, settings, look)
	var pe *shell.ParseError
	if errors.As(h.ParseErr, &pe) && spec.Written != "" {
		// Named as written: the expansion may hold a secret (rule 11).
		h.ParseErr = &shell.ParseError{Command: spec.Shown(), Reason: pe.Reason}
		h.ExecErr = h.ParseErr
	}
}

// SafePaths is the invocation's cached path checker, for display.
func (s *Setup) SafePaths() *safepath.Checker {
	s.pathsOnce.Do(func() {
		s.paths = safepath.New(os.Getuid())
		s.paths.Resolver = &s.files
	})
	return s.paths
}

// checkExecutable is shell.CheckExecutable once per (script, how it is
// run) for the invocation: a thousand hooks over ten scripts stat, access
// and read ten #! lines, not a thousand. For display only, like the other
// caches of Inspect.
func (s *Setup) checkExecutable(path string, firstWord bool) error {
	return s.execChecks.Get(execKey{path, firstWord}, func() error {
		return shell.CheckExecutableWith(path, firstWord, shell.ExecProbes{Stat: s.files.Stat, Head: s.codeMemo.HashBang, Exists: s.interpreterThere})
	})
}

// present is an lstat once per path for the invocation, for display.
func (s *Setup) present(path string) bool {
	_, err := s.files.Lstat(path)
	return err == nil
}

// interpreterThere is a stat of an interpreter named on a #! line, once
// per interpreter for the invocation (100,000 scripts name one), for
// display.
func (s *Setup) interpreterThere(path string) bool {
	return s.interpreters.Get(path, func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

type execKey struct {
	path      string
	firstWord bool
}

// ShellHooks inspects every configured shell hook, in config order.
func (s *Setup) ShellHooks(list *allowlist.List) []ShellHook {
	return s.InspectAll(s.Parsed.Specs, list)
}

// InspectAll inspects the hooks of specs (Inspect), in their order.
func (s *Setup) InspectAll(specs []hookspec.Spec, list *allowlist.List) []ShellHook {
	out := make([]ShellHook, len(specs))
	// Hooks are inspected independently (the caches Inspect uses are safe
	// for concurrent use, and a list with its index built may be searched
	// from many goroutines), so a long config is split over the CPUs; a
	// short one is not worth a goroutine.
	workers := min(runtime.GOMAXPROCS(0), len(specs)/parallelInspectMin)
	look, settings := s.cachedProbes(), s.TrustSettings()
	if workers < 2 {
		for i := range specs {
			s.inspectInto(&out[i], &specs[i], list, look, settings, &s.codeMemo)
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
				s.inspectInto(&out[i], &specs[i], list, look, settings, &s.codeMemo)
			}
		})
	}
	wg.Wait()
	return out
}

// parallelInspectMin is how many hooks each goroutine of ShellHooks gets
// at least.
const parallelInspectMin = 64

// RunsAs is the command as it runs, for a hook whose command as written
// holds ${VAR}s ("" when it has none): expanded as the config was, with
// each secret-named variable (SPEC §13 rule 11) shown as ***. Prompts show
// it beside the written form, so what is approved is what was seen (SPEC
// §13.2 rule 7).
func (s *Setup) RunsAs(spec hookspec.Spec) string {
	if spec.Written == "" {
		return ""
	}
	env := s.Env
	if env == nil {
		env = config.MapEnv(nil)
	}
	masked := func(name string) (string, bool) {
		v, ok := env(name)
		if ok && v != "" && config.IsSecretName(name) {
			return "***", true
		}
		return v, ok
	}
	return pystr.Strip(config.ExpandEnv(spec.Written, masked))
}

// RunsAsNamed is what accept --yes shows (SPEC §24 item 9): the command
// expanded with its secret-named variables left as ${NAME}, "" when that
// is the command as written (no variable, or only secret-named ones).
func (s *Setup) RunsAsNamed(spec hookspec.Spec) string {
	if spec.Written == "" {
		return ""
	}
	env := s.Env
	if env == nil {
		env = config.MapEnv(nil)
	}
	named := func(name string) (string, bool) { return "${" + name + "}", true }
	runs := pystr.Strip(config.ExpandEnv(spec.Written, func(name string) (string, bool) {
		if config.IsSecretName(name) {
			return named(name)
		}
		return env(name)
	}))
	if runs == pystr.Strip(config.ExpandEnv(spec.Written, named)) {
		return ""
	}
	return runs
}
