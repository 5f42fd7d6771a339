package trust

import (
	"os"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
)

// findCode finds the hook's code now (SPEC §23), not hashed yet (an
// approval's decision hashes it; an approval hashes it again); with pinning and strict modes on, the first
// pinned file someone else can change is Unsafe (rule 5 on every file of
// the code, not only §4's script) — unless the hook is judged on an
// approval written before §23, which is judged as before on its script.
func (v *Verdict) findCode(h Hook, s Settings, look Probes) {
	legacy := v.Approved && !v.Approval.HasCode()
	argv := h.CodeArgv
	if argv == nil {
		argv = v.Argv
	}
	env := h.CodeEnv
	if env.PATH == "" {
		env.PATH = os.Getenv("PATH")
	}
	if env.Home == "" {
		env.Home = h.Home
	}
	v.Code = code.FindArgv(argv, env)
	for _, f := range v.Code.Files {
		if f.System {
			continue
		}
		if !legacy && v.Unsafe == nil && s.PinScripts && s.StrictModes && v.present(f.Path, look) {
			v.Unsafe = look.Paths.Check(f.Path)
		}
	}
}

func (v *Verdict) present(path string, look Probes) bool {
	if look.Present != nil {
		return look.Present(path)
	}
	return present(path)
}

// decideOnCode judges an approval that recorded its code: every recorded
// file must be found again at its path, a system file still a system file,
// a pinned one with the same sha256, and no file may have joined the code.
// A difference is modified (missing when a pinned file cannot be read).
func (v *Verdict) decideOnCode(s Settings, look Probes) {
	v.Pinned = s.PinScripts
	for i, f := range v.Code.Files {
		if !f.System {
			v.Code.Files[i].SHA256 = look.Fingerprint(f.Path).SHA256
		}
	}
	v.Changed, v.Drift = CompareCode(v.Approval.Code, v.Code.Files)
	if v.Drift == allowlist.DriftUnchanged && v.HasScriptFile() {
		// Same bytes, another mtime: the agent compares the mtime of §4's
		// script and reports it modified until re-approved (§8.4).
		if allowlist.DriftOf(v.Approval, look.Fingerprint(v.Script)) == allowlist.DriftTouched {
			v.Drift = allowlist.DriftTouched
		}
	}
	if v.Drift == allowlist.DriftUnchanged && v.Approval.Unpinnable != "" {
		// Approved as its command string: what it runs beyond the files
		// listed can change unseen.
		v.Drift = allowlist.DriftUnknown
	}
	v.Fingerprint = allowlist.Fingerprint{Path: v.Script, Err: allowlist.ErrNoScript}
	if v.HasScriptFile() {
		v.Fingerprint = look.Fingerprint(v.Script)
	}
}

// CompareCode compares the code an approval recorded with the code now:
// the paths that differ, and the drift (unchanged, modified, or missing
// when a pinned file that is still part of the code cannot be read).
func CompareCode(recorded, now []code.File) ([]string, allowlist.Drift) {
	byPath := make(map[string]code.File, len(now))
	for _, f := range now {
		byPath[f.Path] = f
	}
	var changed []string
	drift := allowlist.DriftUnchanged
	seen := map[string]bool{}
	for _, r := range recorded {
		seen[r.Path] = true
		n, ok := byPath[r.Path]
		switch {
		case !ok:
			changed = append(changed, r.Path)
		case r.System && n.System:
		case r.System != n.System:
			changed = append(changed, r.Path)
		case n.SHA256 == "" && r.SHA256 == "":
			// Nothing was there to hash at approval: anything there now
			// is not what was approved (SPEC §13.2 rule 1).
			if _, err := os.Lstat(r.Path); err == nil {
				changed = append(changed, r.Path)
				drift = allowlist.DriftModified
			}
		case n.SHA256 == "":
			changed = append(changed, r.Path)
			if drift == allowlist.DriftUnchanged {
				drift = allowlist.DriftMissing
			}
		case n.SHA256 != r.SHA256:
			changed = append(changed, r.Path)
			drift = allowlist.DriftModified
		}
	}
	for _, n := range now {
		if !seen[n.Path] {
			changed = append(changed, n.Path)
		}
	}
	if len(changed) > 0 && drift == allowlist.DriftUnchanged {
		drift = allowlist.DriftModified
	}
	return changed, drift
}

// changedList is " (a, b changed)" for a skip reason, "" for none.
func changedList(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	return " (" + strings.Join(paths, ", ") + " changed)"
}

// NewApproval is the approval to record for the hook as judged now: §8.1's
// fields for its §4 script (the agent's mtime) and its code (SPEC §23).
func (v *Verdict) NewApproval(event, command, via string, now time.Time) allowlist.Entry {
	fp := v.Fingerprint
	if fp.Path == "" && v.HasScriptFile() {
		fp = allowlist.FingerprintNow(v.Script)
	}
	if fp.Path == "" {
		fp.Err = allowlist.ErrNoScript
	}
	c := v.Code
	c.Files = append([]code.File(nil), v.Code.Files...)
	_ = c.Hash() // a file that cannot be read records no sha256: CodeUnhashable says why
	return allowlist.NewEntry(event, command, via, fp, now).WithCode(c)
}

// CodeUnhashable says why no approval may be recorded for the code: a
// pinned file is there but cannot be hashed (SPEC §13.2 rule 1 for every
// file of the code). "" when every pinned file present was hashed.
// checked is a path already judged (§4's script), not read again.
func CodeUnhashable(c code.Code, checked string) string {
	for _, f := range c.Files {
		if f.System || f.SHA256 != "" || f.Path == checked {
			continue
		}
		if why := Unhashable(allowlist.FingerprintNow(f.Path)); why != "" {
			return why
		}
	}
	return ""
}
