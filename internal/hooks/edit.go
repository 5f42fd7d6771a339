package hooks

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/fsync"
)

// ApprovedBytes are the bytes of h's script as approved: the snapshot of
// its approval, else the script now when it still hashes to the approved
// sha256. ok is false when neither is at hand (not approved, no hash, no
// snapshot and the script changed); the caller then compares with the
// script as it is.
func (s *Setup) ApprovedBytes(h ShellHook) (content []byte, sha string, ok bool) {
	if !h.Approved || h.Approval.ScriptSHA256 == "" {
		return nil, "", false
	}
	sha = h.Approval.ScriptSHA256
	if b, err := allowlist.LoadSnapshot(s.Loc.Home, sha); err == nil {
		return b, sha, true
	}
	if fp := allowlist.FingerprintNow(h.Script); fp.Err == nil && fp.SHA256 == sha && fp.Content != nil {
		return fp.Content, sha, true
	}
	return nil, "", false
}

// ReplaceScript puts content at h's script and approves it for h's (event,
// command), in one step under the allowlist lock, ordered so that the
// bytes at the script's path are approved at every instant (SPEC §25):
//
//  1. the new content is written to a temporary file beside the script
//     (mode and owner of the script kept) and hashed;
//  2. an approval of the new sha256 is added beside the old one
//     (allowlist.Stage): both versions are approved;
//  3. the temporary file is renamed over the script (atomic: a reader sees
//     the old bytes or the new, never a mix);
//  4. the approval is replaced by the new one alone.
//
// A reader that read the allowlist before 2 and hashes the script after 3
// reads the allowlist once more after its hash (trust, the guard, the
// engine), and then finds the new sha256 approved. wantSHA256 is the
// sha256 of what the person was shown: the temporary file must hash to it
// (SPEC §13.6). A symbolic link at the script's path is followed: its
// target is replaced, the link stays.
func (s *Setup) ReplaceScript(h ShellHook, content []byte, wantSHA256, via string, now time.Time) (allowlist.Entry, []string, error) {
	if !h.HasScriptFile() || h.NoScript {
		return allowlist.Entry{}, nil, fmt.Errorf("%s hook %q has no script file to edit", h.Event, h.Shown())
	}
	return s.ReplaceFile(h, h.Script, content, wantSHA256, via, now)
}

// Pinned reports whether the approval of h records the bytes of file:
// today the §4 script alone. When the trust decision pins every file of a
// hook's code (SPEC §23, package code), this says so for each of them, and
// ReplaceFile records the new sha256 of whichever was edited.
func Pinned(h ShellHook, file string) bool { return file == h.Script }

// ReplaceFile is ReplaceScript for any file of h's code. For a file the
// approval does not pin (Pinned), the new bytes replace it atomically and
// no approval changes (the Entry returned is zero).
func (s *Setup) ReplaceFile(h ShellHook, file string, content []byte, wantSHA256, via string, now time.Time) (allowlist.Entry, []string, error) {
	target, err := filepath.EvalSymlinks(file)
	if err != nil {
		return allowlist.Entry{}, nil, fmt.Errorf("cannot edit %s: %w", file, err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		return allowlist.Entry{}, nil, fmt.Errorf("cannot edit %s: %w", file, err)
	}
	if !fi.Mode().IsRegular() {
		return allowlist.Entry{}, nil, fmt.Errorf("cannot edit %s: not a regular file", file)
	}
	tmp, err := writeBeside(target, content, fi)
	if err != nil {
		return allowlist.Entry{}, nil, err
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp)
		}
	}()
	fp := allowlist.FingerprintNow(tmp)
	if fp.Err != nil {
		return allowlist.Entry{}, nil, fmt.Errorf("cannot read back %s: %w", tmp, fp.Err)
	}
	if wantSHA256 != "" && fp.SHA256 != wantSHA256 {
		return allowlist.Entry{}, nil, fmt.Errorf("%w for %s: what was shown has %s, what was written has %s; nothing changed", ErrHashMismatch, file, wantSHA256, fp.SHA256)
	}
	if !Pinned(h, file) {
		if err := os.Rename(tmp, target); err != nil {
			return allowlist.Entry{}, nil, fmt.Errorf("replacing %s: %w", target, err)
		}
		renamed = true
		syncDir(filepath.Dir(target))
		return allowlist.Entry{}, nil, nil
	}
	fp.Path = h.Script
	entry := allowlist.NewEntry(h.Event, h.Command, via, fp, now)
	if len(h.Code.Files) > 0 {
		entry = entry.WithCode(hashedCode(h, fp))
	}
	warnings, err := s.Store.Swap(
		func(l *allowlist.List) error {
			if err := allowlist.SaveSnapshot(s.Loc.Home, fp); err != nil {
				return fmt.Errorf("saving a snapshot of %s: %w", h.Script, err)
			}
			l.Stage(entry)
			return nil
		},
		func() error {
			if err := os.Rename(tmp, target); err != nil {
				return fmt.Errorf("replacing %s: %w", target, err)
			}
			renamed = true
			syncDir(filepath.Dir(target))
			return nil
		},
		func(l *allowlist.List) error {
			l.Approve(entry)
			return nil
		})
	if err != nil {
		if renamed {
			return entry, warnings, fmt.Errorf("%s was replaced and its new content approved beside the old, but: %w", h.Script, err)
		}
		return allowlist.Entry{}, warnings, err
	}
	return entry, warnings, nil
}

// writeBeside writes content to a new temporary file in target's folder
// with target's mode (and owner, when root writes), synced, and returns
// its path.
func writeBeside(target string, content []byte, fi fs.FileInfo) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".hermes-edit-*")
	if err != nil {
		return "", fmt.Errorf("cannot write beside %s: %w", target, err)
	}
	name := f.Name()
	err = fileowner.Keep(f, target)
	if err == nil {
		_, err = f.Write(content)
	}
	if err == nil {
		err = f.Chmod(fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("cannot write beside %s: %w", target, err)
	}
	return name, nil
}

// syncDir makes a rename in dir durable; a failure only loses durability.
func syncDir(dir string) { _ = fsync.Dir(dir) }

// hashedCode is h's code with each pinned file's sha256: §4's script's
// from script (the bytes approved or about to replace it), every other
// file's hashed now ("" when it cannot be read). approve and edit record it.
func hashedCode(h ShellHook, script allowlist.Fingerprint) code.Code {
	c := h.Code
	c.Files = append([]code.File(nil), h.Code.Files...)
	for i, f := range c.Files {
		switch {
		case f.System:
		case f.Path == script.Path:
			c.Files[i].SHA256 = script.SHA256
		default:
			c.Files[i].SHA256, _ = code.Hash(f.Path)
		}
	}
	return c
}
