package hooks

import (
	"errors"
	"fmt"
	"io/fs"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// Reasons a script cannot be compared with its approved snapshot.
var (
	ErrNotApproved   = errors.New("not approved")
	ErrNoSnapshot    = errors.New("no snapshot")
	ErrScriptMissing = errors.New("script missing")
)

// ScriptDiff compares the script approved for a hook with the script now.
type ScriptDiff struct {
	Script  string
	OldSHA  string
	NewSHA  string
	Changed bool
	// Unified is the unified diff, "" when unchanged.
	Unified string
}

// DiffScript diffs the snapshot taken at approval against the script now.
// Errors wrap ErrNotApproved, ErrNoSnapshot or ErrScriptMissing with a
// message saying why and what to do.
func (s *Setup) DiffScript(h ShellHook) (*ScriptDiff, error) {
	if !h.Approved {
		return nil, fmt.Errorf("%q for %s is %w: nothing to compare with (approve it with 'hermes hooks accept')", h.Command, h.Event, ErrNotApproved)
	}
	sha := h.Approval.ScriptSHA256
	if sha == "" {
		return nil, fmt.Errorf("%w for %q: it was approved without a content hash (by the Hermes agent, or before pinning); re-approve it with 'hermes hooks accept' to record one", ErrNoSnapshot, h.Command)
	}
	old, err := allowlist.LoadSnapshot(s.Loc.Home, sha)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w of the approved script of %q (sha256 %s): it was approved elsewhere, or the script was larger than 1 MiB", ErrNoSnapshot, h.Command, sha)
		}
		return nil, err
	}
	fp := s.Fingerprints.Of(h.Script)
	if fp.Err != nil {
		return nil, fmt.Errorf("%w: cannot read %s: %v", ErrScriptMissing, h.Script, fp.Err)
	}
	d := &ScriptDiff{Script: h.Script, OldSHA: sha, NewSHA: fp.SHA256}
	d.Changed = d.NewSHA != d.OldSHA
	if d.Changed {
		if fp.Content == nil {
			return nil, fmt.Errorf("%s changed (sha256 %s, approved %s) but is larger than 1 MiB: no diff shown", h.Script, short(fp.SHA256), short(sha))
		}
		d.Unified = udiff.Unified("approved ("+short(sha)+")", h.Script+" (now, "+short(d.NewSHA)+")", string(old), string(fp.Content))
	}
	return d, nil
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
