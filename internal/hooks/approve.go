package hooks

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// ErrHashMismatch is returned by ApprovePinned when a script's sha256 is
// not the one asked for; nothing is recorded then.
var ErrHashMismatch = errors.New("sha256 mismatch")

// Approve records approvals for hooks in one locked update of the
// allowlist: for each, the script's sha256 and mtime now, and a snapshot of
// the script so a later change can be shown as a diff. It returns the
// entries written and the allowlist's warnings. via is one of the
// allowlist.Via* values.
func (s *Setup) Approve(hs []ShellHook, via string, now time.Time) ([]allowlist.Entry, []string, error) {
	return s.ApprovePinned(hs, via, now, "")
}

// ApprovePinned is Approve that, when wantSHA256 is not "", first checks
// every script hashes to it (lowercase hex) and records nothing unless all
// do. The check and the record use the same reading of the script, so a
// file swapped in between cannot be approved under the pinned hash.
func (s *Setup) ApprovePinned(hs []ShellHook, via string, now time.Time, wantSHA256 string) ([]allowlist.Entry, []string, error) {
	want := make([]string, len(hs))
	for i := range want {
		want[i] = wantSHA256
	}
	return s.ApproveShown(hs, via, now, want)
}

// ApproveShown approves hs[i] only if its script hashes to want[i] ("" =
// whatever it is now): the content the person was shown (SPEC §13.6). One
// mismatch records nothing and returns ErrHashMismatch. A script that is
// there but cannot be read (EIO on this second read included) records
// nothing either (trust.Unhashable). With an
// *allowlist.DirSyncError the entries were recorded (and are returned).
func (s *Setup) ApproveShown(hs []ShellHook, via string, now time.Time, want []string) ([]allowlist.Entry, []string, error) {
	fps := make([]allowlist.Fingerprint, len(hs))
	for i, h := range hs {
		fps[i] = allowlist.Fingerprint{Path: h.Script, Err: allowlist.ErrNoScript}
		if h.HasScriptFile() {
			// Fresh, not cached: the approval must record what is there now.
			fps[i] = allowlist.FingerprintNow(h.Script)
		}
		if why := trust.Unhashable(fps[i]); why != "" {
			// No path of this tool approves without a hash while a file
			// is there (SPEC §13.2 rule 1), --force included.
			return nil, nil, fmt.Errorf("%s hook %q: %s; not approved", h.Event, h.Shown(), why)
		}
		wantSHA256 := want[i]
		if wantSHA256 == "" {
			continue
		}
		if fps[i].Err != nil {
			return nil, nil, fmt.Errorf("cannot check the sha256 of the script of %q (%s): %v; not approved", h.Shown(), orNoScript(h.Script), fps[i].Err)
		}
		if fps[i].SHA256 != wantSHA256 {
			return nil, nil, fmt.Errorf("%w for %s: expected %s, the script has %s; not approved (review it, then pin the hash it has now)",
				ErrHashMismatch, h.Script, wantSHA256, fps[i].SHA256)
		}
	}
	entries := make([]allowlist.Entry, 0, len(hs))
	for i, h := range hs {
		c, err := codeNow(h, fps[i])
		if err != nil {
			return nil, nil, err
		}
		entries = append(entries, allowlist.NewEntry(h.Event, h.Command, via, fps[i], now).WithCode(c))
	}
	// Snapshots are saved once the lock is held: an interrupt while waiting
	// for it leaves nothing behind.
	warnings, err := s.Store.Update(func(l *allowlist.List) error {
		ctx := s.Store.Wait.Context
		if ctx == nil {
			ctx = context.Background()
		}
		if err := allowlist.SaveSnapshots(ctx, s.Loc.Home, fps); err != nil {
			if ctx.Err() != nil {
				return err // interrupted: nothing is recorded
			}
			return fmt.Errorf("saving the snapshots of the scripts: %w", err)
		}
		var files []code.File
		for _, e := range entries {
			files = append(files, e.Code...)
		}
		saveCodeSnapshots(s.Loc.Home, files)
		for _, e := range entries {
			l.Approve(e)
		}
		return nil
	})
	var unsynced *allowlist.DirSyncError
	if errors.As(err, &unsynced) {
		return entries, warnings, err // recorded; only the folder sync failed
	}
	if err != nil {
		return nil, warnings, err
	}
	return entries, warnings, nil
}

func orNoScript(path string) string {
	if path == "" {
		return "no script"
	}
	return path
}

// codeNow is the hook's code hashed again now (SPEC §23), for the
// approval: a pinned file that is there but cannot be hashed, or whose
// hash is not the one shown, records nothing.
func codeNow(h ShellHook, script allowlist.Fingerprint) (code.Code, error) {
	// §4's script was read once for the approval and already judged; an
	// unreadable file keeps "": judged just below.
	c := hashedCode(h, script)
	if why := trust.CodeUnhashable(c, script.Path); why != "" {
		return c, fmt.Errorf("%s hook %q: %s; not approved", h.Event, h.Shown(), why)
	}
	for i, f := range c.Files {
		if shown := h.Code.Files[i].SHA256; shown != "" && shown != f.SHA256 {
			return c, fmt.Errorf("%w for %s: expected %s, the file has %s; not approved (review it, then approve it again)",
				ErrHashMismatch, f.Path, shown, f.SHA256)
		}
	}
	return c, nil
}

// saveCodeSnapshots keeps the content of each pinned file of the code, so
// that `hermes hooks diff` can show how it changed (SPEC §23). A snapshot
// that cannot be saved only means no diff later.
func saveCodeSnapshots(home string, files []code.File) {
	var fps []allowlist.Fingerprint
	seen := map[string]bool{}
	for _, f := range files {
		if f.System || f.SHA256 == "" || seen[f.SHA256] {
			continue
		}
		seen[f.SHA256] = true
		if path, err := allowlist.SnapshotPath(home, f.SHA256); err == nil {
			if _, err := os.Stat(path); err == nil {
				continue // kept already: not read and hashed again
			}
		}
		if fp := allowlist.FingerprintNow(f.Path); fp.Err == nil && fp.SHA256 == f.SHA256 && fp.Content != nil {
			fps = append(fps, fp)
		}
	}
	_ = allowlist.SaveSnapshots(context.Background(), home, fps)
}
