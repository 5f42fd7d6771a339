package trust

import (
	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
)

// staged is the verdict against a later entry of the same (event, command)
// whose sha256 is the script's now, when the first entry's is not: while
// `hermes hooks edit` swaps a script, both the old and the new content are
// approved (allowlist.Stage), so a reader never sees the bytes at the path
// approved by neither (SPEC §25). ok is false when no such entry exists.
func staged(list *allowlist.List, h Hook, v Verdict) (Verdict, bool) {
	if list == nil || v.Drift != allowlist.DriftModified || v.Fingerprint.Err != nil {
		return v, false
	}
	for _, e := range list.Entries(h.Event, h.Command)[1:] {
		if e.ScriptSHA256 != "" && e.ScriptSHA256 == v.Fingerprint.SHA256 {
			v.Approval = e
			v.Drift = allowlist.DriftOf(e, v.Fingerprint)
			return v, true
		}
	}
	return v, false
}

// stagedOnCode is staged for an approval that records the hook's code
// (SPEC §23): the verdict against the first later entry of the same
// (event, command) that approves the code as it is now, else v.
func stagedOnCode(list *allowlist.List, h Hook, v Verdict, s Settings, look Probes) Verdict {
	if list == nil {
		return v
	}
	for _, e := range list.Entries(h.Event, h.Command)[1:] {
		w := v
		w.Approval = e
		w.Code.Files = append([]code.File(nil), v.Code.Files...)
		if e.HasCode() {
			w.decideOnCode(s, look)
		} else {
			w.Drift = allowlist.DriftOf(e, w.Fingerprint)
		}
		if w.Drift != allowlist.DriftModified {
			return w
		}
	}
	return v
}
