// Package trust is the one decision whether a shell hook may run now (SPEC
// §13, §13.2): its approval, pinning, who else could change its script
// (ownership, modes, ACLs), the path and "~" rules and unreadable scripts.
// run-event, test, the policy cases, doctor and list ask it through
// package hooks; the guard (SPEC §17) asks it directly, so it depends only
// on allowlist, safepath and shell: no config, no matcher engine, no CLI.
package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Settings are the config's trust switches. The guard, which reads no
// config, passes both on.
type Settings struct {
	PinScripts  bool // hooks_pin_scripts
	StrictModes bool // hooks_strict_modes
}

// Hook is what is judged: the allowlist entry is looked up by (Event,
// Command); the script judged is the one Argv runs.
type Hook struct {
	Event string
	// Command is the command the allowlist holds for the hook (${VAR}
	// expanded). For the guard it is the wrapped command.
	Command string
	// Argv is the argv whose script is judged; nil means Command
	// tokenised as the agent tokenises it (leading "~" expanded with
	// Home). For the guard it is the inner COMMAND.
	Argv []string
	// Home is the user's home, for a leading "~".
	Home string
	// NoScript says the hook has no script file by design: a Claude Code
	// command that is a pipeline of programs (SPEC §19). What is approved
	// is then the command string itself, which the allowlist entry holds
	// word for word; no file is hashed, and none can drift.
	NoScript bool
	// CodeArgv is the argv whose code (SPEC §23) is judged: nil means
	// Argv (or Command tokenised). For a protected hook it is the inner
	// command, `sh -c CMD` for a Claude Code command hook.
	CodeArgv []string
	// CodeEnv is what the code is found with: the PATH the hook runs
	// with, HOME, the project folder and HERMES_HOME. A zero PATH means
	// this process's; a zero Home means Home.
	CodeEnv code.Env
}

// Probes are how a decision looks at the files a hook names: asked now
// (Now: the decision to run) or through an invocation's caches (display).
type Probes struct {
	Fingerprint func(path string) allowlist.Fingerprint
	Paths       *safepath.Checker
	Executable  func(path string, firstWord bool) error
	// Present reports whether anything is at path (lstat); nil asks the
	// file system now.
	Present func(path string) bool
}

// present is lstat succeeding: anything at path, of any type or mode.
func present(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Now are probes that hash, stat and check at this moment, from no cache:
// what every decision to run a hook must use.
func Now() Probes {
	return Probes{Fingerprint: allowlist.FingerprintNow, Paths: safepath.New(os.Getuid()), Executable: shell.CheckExecutable, Present: present}
}

// Verdict is everything known about a hook's script and approval now, and
// whether it may run.
type Verdict struct {
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

	// Present: something (readable or not, any type) is at the script
	// path, by lstat.
	Present bool
	// NoScript: the hook has no script file by design (Hook.NoScript);
	// the approval is the command string itself.
	NoScript bool

	Approved    bool
	Approval    allowlist.Entry // the entry found, when Approved
	Fingerprint allowlist.Fingerprint
	Drift       allowlist.Drift // "" when not approved
	// Pinned: pinning is on and the approval recorded a sha256 or was
	// written by this tool (which always pins; SPEC §13.3).
	Pinned bool
	// Unsafe, when not nil, names who else could change the script (SPEC
	// §13.5, §13.2 rule 2): decided with pinning and strict modes on for
	// every file at the script path, approved or not, readable or not.
	Unsafe error

	// Code is the hook's code now (SPEC §23), each pinned file hashed.
	Code code.Code
	// Changed names the files of the code that differ from what the
	// approval recorded (modified, missing, new, or no longer a system
	// file); empty for an approval without code.
	Changed []string
}

// Entry is the allowlist entry the verdict was decided against.
func (v *Verdict) Entry() allowlist.Entry { return v.Approval }

// SHA256 is the script's sha256 now, "" when it could not be hashed.
func (v *Verdict) SHA256() string { return v.Fingerprint.SHA256 }

// Allowed reports whether the hook may run without asking: approved, not
// stopped by pinning, nobody else can change its script, and it can be run
// as written.
func (v *Verdict) Allowed() bool {
	return v.Approved && !v.Blocked() && v.Unsafe == nil && v.Refusal == ""
}

// Blocked reports whether pinning stops this approved hook: the script is
// not the one approved (modified), or cannot be hashed to tell (missing).
func (v *Verdict) Blocked() bool {
	// An approval this tool made without a hash (there was no script to
	// hash) stays trusted while there is still none: it cannot start, and a
	// fail-closed guard blocks. A script appearing there is modified.
	missing := v.Drift == allowlist.DriftMissing && (v.Approval.Pinned() || v.Approval.HasCode())
	return v.Approved && v.Pinned && (v.Drift == allowlist.DriftModified || missing)
}

// Why a hook does not run (SPEC §10.4, §13).
const (
	SkipNotApproved = "not approved"
	SkipModified    = "modified since approval"
	SkipUnreadable  = "script cannot be read since approval"
	// UnsafePrefix starts the reason of a script someone else can change.
	UnsafePrefix = "someone else can change the script: "
)

// Reason is why the hook may not run without consent, "" when Allowed: its
// refusal, pinning, who else can change its script, or no approval.
func (v *Verdict) Reason() string {
	switch {
	case v.Refusal != "":
		return v.Refusal
	case v.Blocked() && v.Drift == allowlist.DriftMissing:
		return SkipUnreadable
	case v.Blocked():
		return SkipModified + changedList(v.Changed)
	case v.Unsafe != nil:
		return UnsafePrefix + v.Unsafe.Error()
	case !v.Approved:
		return SkipNotApproved
	}
	return ""
}

// HasScriptFile reports whether the hook's script is a path that can be
// fingerprinted. A command that cannot be parsed has none, and a bare word
// PATH did not resolve is not a file of ours: reading it relative to the
// current directory could hash an unrelated file.
func (v *Verdict) HasScriptFile() bool {
	return v.ParseErr == nil && filepath.IsAbs(v.Script)
}

// Decide is the decision whether h may run now, with its script hashed and
// its path checked at this moment (Now).
func Decide(list *allowlist.List, h Hook, s Settings) Verdict {
	return DecideWith(list, h, s, Now())
}

// DecideWith is Decide with the given probes; list may be nil (nothing is
// approved).
func DecideWith(list *allowlist.List, h Hook, s Settings, look Probes) Verdict {
	var v Verdict
	look.Fingerprint = once(look.Fingerprint)
	if h.Argv != nil {
		v.Argv = h.Argv
	} else {
		v.Argv, v.ParseErr = shell.Argv(h.Command, h.Home)
	}
	if v.ParseErr == nil && h.NoScript {
		// Nothing to resolve, hash or check: the approval is the command.
		v.NoScript = true
	} else if v.ParseErr == nil {
		v.Script, v.FirstWord = shell.ResolveScript(v.Argv)
		v.ExecErr = look.Executable(v.Script, v.FirstWord)
		v.Refusal = tildeRefusal(v.Argv)
	} else {
		v.ExecErr = v.ParseErr
	}
	if v.HasScriptFile() {
		if look.Present != nil {
			v.Present = look.Present(v.Script)
		} else {
			v.Present = present(v.Script)
		}
	}
	// Who else could change the script is asked of the file and its
	// folders themselves (lstat/stat), whatever the hash says and whoever
	// wrote the approval (SPEC §13.2 rule 2): an unreadable file is still
	// someone's file.
	if s.PinScripts && s.StrictModes && v.Present {
		v.Unsafe = look.Paths.Check(v.Script)
	}
	if list != nil {
		v.Approval, v.Approved = list.Find(h.Event, h.Command)
	}
	if v.ParseErr == nil {
		v.findCode(h, s, look)
	}
	if !v.Approved {
		return v
	}
	if v.Approval.HasCode() {
		v.decideOnCode(s, look)
		if v.Drift == allowlist.DriftModified {
			v = stagedOnCode(list, h, v, s, look)
		}
		return v
	}
	v.Fingerprint = allowlist.Fingerprint{Path: v.Script, Err: allowlist.ErrNoScript}
	if v.HasScriptFile() {
		v.Fingerprint = look.Fingerprint(v.Script)
	}
	v.Drift = allowlist.DriftOf(v.Approval, v.Fingerprint)
	v, _ = staged(list, h, v)
	if v.NoScript {
		// The entry holds the command string word for word: it is the
		// thing approved, and the lookup by it is its comparison.
		v.Drift = allowlist.DriftUnchanged
	}
	ours := v.Approval.ApprovedVia != ""
	v.Pinned = s.PinScripts && (v.Approval.Pinned() || ours)
	if v.Pinned && !v.Approval.Pinned() && v.Present {
		// This tool approved it without a hash, because there was no
		// script to hash then; anything there now, readable or not, is not
		// what was approved (SPEC §13.2 rule 1).
		v.Drift = allowlist.DriftModified
	}
	return v
}

// Unhashable says why no approval may be recorded for the script fp
// fingerprinted: something exists at its path but could not be hashed (an
// execute-only file, a FIFO, a folder), and an approval without a sha256
// would trust whatever is put there next (SPEC §13.2 rule 1). "" when the
// script was hashed or nothing is there.
func Unhashable(fp allowlist.Fingerprint) string {
	if fp.Err == nil || !filepath.IsAbs(fp.Path) {
		return ""
	}
	if _, err := os.Lstat(fp.Path); err != nil {
		return ""
	}
	fix := "make it a readable regular file"
	if errors.Is(fp.Err, fs.ErrPermission) {
		fix = "make it readable (chmod u+r)"
	}
	return fmt.Sprintf("the script %s cannot be read (%s), so its sha256 cannot be recorded; %s, then approve it", fp.Path, unwrap(fp.Err), fix)
}

// unwrap is the OS reason of err without the path the message names.
func unwrap(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// FindByArgv is the guard's lookup (SPEC §17): the first entry of event
// whose command, tokenised as the agent tokenises it (leading "~" expanded
// with home), equals argv exactly.
func FindByArgv(list *allowlist.List, event string, argv []string, home string) (allowlist.Entry, bool) {
	if list == nil {
		return allowlist.Entry{}, false
	}
	for _, e := range list.Approvals {
		if e.Event == event && CommandIsArgv(e.Command, argv, home) {
			return e, true
		}
	}
	return allowlist.Entry{}, false
}

// CommandIsArgv reports whether command, tokenised as the agent tokenises
// it (leading "~" expanded with home), is argv. Most commands of a large
// allowlist fail a cheap test first and are never split.
func CommandIsArgv(command string, argv []string, home string) bool {
	// A leading "~" is expanded before splitting: such a command is
	// always split.
	if !strings.HasPrefix(command, "~") && !shell.MaySplitTo(command, argv) {
		return false
	}
	got, err := shell.Argv(command, home)
	return err == nil && equal(got, argv)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// tildeRefusal is TildeRefusal for argv's script word, unless that word
// is the code of `sh -c`, where the shell expands the "~" itself.
func tildeRefusal(argv []string) string {
	if i, _ := shell.ScriptWordIndex(argv); i > 0 && i == code.ShellCodeIndex(argv) {
		return ""
	}
	return TildeRefusal(shell.TildeScript(argv))
}

// TildeRefusal explains a script word that starts with "~": it reaches the
// process literally, so the file run would not be the file hashed. "" for
// no word.
func TildeRefusal(word string) string {
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

// once hashes each path at most once within one decision: §4's script is
// usually a file of the code too, and is read once.
func once(fp func(string) allowlist.Fingerprint) func(string) allowlist.Fingerprint {
	// A decision hashes one to three paths: a short list, not a map, whose
	// smallest size held about 2 KB per decision (200 MB for a protect
	// --all of 100,000 hooks, SPEC §29 item 2).
	type seen struct {
		path string
		fp   allowlist.Fingerprint
	}
	var known []seen
	return func(path string) allowlist.Fingerprint {
		for _, k := range known {
			if k.path == path {
				return k.fp
			}
		}
		f := fp(path)
		known = append(known, seen{path, f})
		return f
	}
}
