package hooks

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
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
	return s.diffAgainst(h, func() allowlist.Fingerprint { return s.Fingerprints.Of(h.Script) })
}

func (s *Setup) diffAgainst(h ShellHook, now func() allowlist.Fingerprint) (*ScriptDiff, error) {
	if !h.Approved {
		return nil, fmt.Errorf("%q for %s is %w: nothing to compare with (approve it with 'hermes hooks accept')", h.Shown(), h.Event, ErrNotApproved)
	}
	sha := h.Approval.ScriptSHA256
	if sha == "" {
		return nil, fmt.Errorf("%w for %q: it was approved without a content hash (by the Hermes agent, or before pinning); re-approve it with 'hermes hooks accept' to record one", ErrNoSnapshot, h.Shown())
	}
	old, err := allowlist.LoadSnapshot(s.Loc.Home, sha)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w of the approved script of %q (sha256 %s): it was approved elsewhere, or the script was larger than 1 MiB", ErrNoSnapshot, h.Shown(), sha)
		}
		return nil, err
	}
	fp := now()
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

// Shown is what a prompt shows of a hook's script, read at one moment: the
// script (its hash and first lines) for a first approval, the diff against
// the approved snapshot for a re-approval. Approving after the prompt
// records exactly this content (SPEC §13.6), checked with Changed.
type Shown struct {
	Hook        ShellHook
	Fingerprint allowlist.Fingerprint
	// Diff is set for a re-approval whose snapshot could be compared;
	// DiffErr says why it could not.
	Diff    *ScriptDiff
	DiffErr error
}

// Show reads the hook's script now for a prompt.
func (s *Setup) Show(h ShellHook) Shown {
	sh := Shown{Hook: h, Fingerprint: allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}}
	if h.HasScriptFile() {
		sh.Fingerprint = allowlist.FingerprintNow(h.Script)
	}
	if h.Approved {
		sh.Diff, sh.DiffErr = s.diffAgainst(h, func() allowlist.Fingerprint { return sh.Fingerprint })
	}
	return sh
}

// Changed reports whether the script is no longer what was shown.
func (sh Shown) Changed() bool {
	if !sh.Hook.HasScriptFile() {
		return false
	}
	now := allowlist.FingerprintNow(sh.Hook.Script)
	return now.SHA256 != sh.Fingerprint.SHA256 || (now.Err == nil) != (sh.Fingerprint.Err == nil)
}

// SHA256 is the hash of the content shown, "" when the script could not
// be read.
func (sh Shown) SHA256() string { return sh.Fingerprint.SHA256 }

// Head is the first n lines of the script shown and how many lines it has
// in all; ok is false when the content is not at hand (unreadable, or
// larger than a snapshot).
func (sh Shown) Head(n int) (lines []string, total int, ok bool) {
	if sh.Fingerprint.Content == nil {
		return nil, 0, false
	}
	all := strings.SplitAfter(string(sh.Fingerprint.Content), "\n")
	if all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	if len(all) > n {
		return all[:n], len(all), true
	}
	return all, len(all), true
}

// DiffStat counts the added and removed lines of a unified diff.
func DiffStat(unified string) (added, removed int) {
	for _, line := range strings.Split(unified, "\n") {
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
		case strings.HasPrefix(line, "+"):
			added++
		case strings.HasPrefix(line, "-"):
			removed++
		}
	}
	return added, removed
}

// CodeChange is one file of a hook's code that differs from its approval
// (SPEC §23: `hermes hooks diff` shows each).
type CodeChange struct {
	Path   string
	What   string // modified, cannot be read, new in the code, no longer in the code, no longer a system file, now a system file
	OldSHA string
	NewSHA string
	// Unified is the diff against the snapshot taken at approval, "" when
	// there is none to show.
	Unified string
}

// DiffCode lists the files of h's code that changed since approval, other
// than §4's script (DiffScript shows that one).
func (s *Setup) DiffCode(h ShellHook) []CodeChange {
	var out []CodeChange
	for _, p := range h.Changed {
		if p == h.Script {
			continue
		}
		c := CodeChange{Path: p}
		rec, wasThere := findFile(h.Approval.Code, p)
		now, isThere := findFile(h.Code.Files, p)
		switch {
		case !wasThere:
			c.What, c.NewSHA = "new in the code", now.SHA256
		case !isThere:
			c.What, c.OldSHA = "no longer in the code", rec.SHA256
		case rec.System && !now.System:
			c.What, c.NewSHA = "no longer a system file", now.SHA256
		case !rec.System && now.System:
			c.What, c.OldSHA = "now a system file", rec.SHA256
		case now.SHA256 == "":
			c.What, c.OldSHA = "cannot be read", rec.SHA256
		default:
			c.What, c.OldSHA, c.NewSHA = "modified", rec.SHA256, now.SHA256
			if old, err := allowlist.LoadSnapshot(s.Loc.Home, rec.SHA256); err == nil {
				if fp := allowlist.FingerprintNow(p); fp.Err == nil && fp.Content != nil {
					c.Unified = udiff.Unified("approved ("+short(rec.SHA256)+")", p+" (now, "+short(fp.SHA256)+")", string(old), string(fp.Content))
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func findFile(files []code.File, path string) (code.File, bool) {
	for _, f := range files {
		if f.Path == path {
			return f, true
		}
	}
	return code.File{}, false
}
