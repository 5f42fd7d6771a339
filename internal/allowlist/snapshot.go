package allowlist

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// SnapshotDirName is the folder of script snapshots inside HERMES_HOME.
const SnapshotDirName = "shell-hooks-snapshots"

// SaveSnapshot keeps a copy of an approved script as
// <hermesHome>/shell-hooks-snapshots/<sha256> (folder 0700, file 0600) so a
// later change can be shown as a diff. Scripts without Content (unreadable
// or larger than MaxSnapshot) have no snapshot; that is not an error.
func SaveSnapshot(hermesHome string, fp Fingerprint) error {
	if fp.Content == nil || fp.Err != nil {
		return nil
	}
	path, err := snapshotPath(hermesHome, fp.SHA256)
	if err != nil {
		return err
	}
	// The name is the content's identity; refuse a fingerprint that lies.
	if sum := sha256.Sum256(fp.Content); hex.EncodeToString(sum[:]) != strings.ToLower(fp.SHA256) {
		return fmt.Errorf("snapshot of %s: content does not match sha256 %s", fp.Path, fp.SHA256)
	}
	// Temporary files of snapshot writes that were killed go first, even
	// when this snapshot is already there (SPEC §22).
	removeStaleTemps(filepath.Dir(path), ".*.tmp-*", time.Now())
	if _, err := os.Stat(path); err == nil {
		return nil // same name, same bytes
	}
	if err := os.Mkdir(filepath.Dir(path), 0o700); err == nil {
		fileowner.LikeParent(filepath.Dir(path))
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create the snapshot folder: %w", err)
	}
	if err := writeAtomic(path, fp.Content); err != nil {
		return fmt.Errorf("cannot save the snapshot of %s: %w", fp.Path, err)
	}
	return nil
}

// LoadSnapshot returns the snapshot of the script with this sha256; the
// error wraps fs.ErrNotExist when there is none.
func LoadSnapshot(hermesHome, sha string) ([]byte, error) {
	path, err := snapshotPath(hermesHome, sha)
	if err != nil {
		return nil, err
	}
	data, err := regfile.ReadFile(path) // a FIFO put there must not hang diff
	if err != nil {
		return nil, fmt.Errorf("cannot read the snapshot: %w", err)
	}
	return data, nil
}

// SnapshotPath is where the snapshot of sha is kept.
func SnapshotPath(hermesHome, sha string) (string, error) { return snapshotPath(hermesHome, sha) }

// ErrBadSHA256 is returned for a snapshot name that is not 64 hex digits.
var ErrBadSHA256 = errors.New("not a sha256 (64 hex digits)")

// snapshotPath checks sha is 64 hex digits so the name can never reach
// outside the folder.
func snapshotPath(hermesHome, sha string) (string, error) {
	sha = strings.ToLower(sha)
	if len(sha) != sha256.Size*2 {
		return "", fmt.Errorf("snapshot name %q: %w", sha, ErrBadSHA256)
	}
	if _, err := hex.DecodeString(sha); err != nil {
		return "", fmt.Errorf("snapshot name %q: %w", sha, ErrBadSHA256)
	}
	return filepath.Join(hermesHome, SnapshotDirName, sha), nil
}
