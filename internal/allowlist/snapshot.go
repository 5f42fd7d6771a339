package allowlist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/fsync"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// SnapshotDirName is the folder of script snapshots inside HERMES_HOME.
const SnapshotDirName = "shell-hooks-snapshots"

// SaveSnapshot keeps a copy of an approved script as
// <hermesHome>/shell-hooks-snapshots/<sha256> (folder 0700, file 0600) so a
// later change can be shown as a diff. Scripts without Content (unreadable
// or larger than MaxSnapshot) have no snapshot; that is not an error.
func SaveSnapshot(hermesHome string, fp Fingerprint) error {
	return SaveSnapshots(context.Background(), hermesHome, []Fingerprint{fp})
}

// SaveSnapshots is SaveSnapshot of each fingerprint (one content once, and
// none already kept), written together: every file, then one sync of the
// file system they are on, the renames, and one sync of the folder, where
// a file at a time would sync each (accept --all of 10,000 scripts spent
// 40 s in fsync). A crash leaves each snapshot there whole or not at all.
// Once ctx is done (an interrupt) nothing more is written and ctx's error
// is returned, no temporary file left.
func SaveSnapshots(ctx context.Context, hermesHome string, fps []Fingerprint) error {
	type pending struct{ tmp, target, script string }
	var todo []pending
	defer func() { // what is left of a batch that failed
		for _, p := range todo {
			os.Remove(p.tmp)
		}
	}()
	var dir string
	saved := map[string]bool{}
	for _, fp := range fps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if fp.Content == nil || fp.Err != nil || saved[fp.SHA256] {
			continue
		}
		saved[fp.SHA256] = true
		path, err := snapshotPath(hermesHome, fp.SHA256)
		if err != nil {
			return err
		}
		// The name is the content's identity; refuse a fingerprint that lies.
		if sum := sha256.Sum256(fp.Content); hex.EncodeToString(sum[:]) != strings.ToLower(fp.SHA256) {
			return fmt.Errorf("snapshot of %s: content does not match sha256 %s", fp.Path, fp.SHA256)
		}
		if dir == "" {
			dir = filepath.Dir(path)
			// Temporary files of snapshot writes that were killed go
			// first, even when the snapshots are there already (SPEC §22);
			// once per folder and minute, not once per snapshot: each
			// sweep lists the folder.
			sweepSnapshotTemps(dir, time.Now())
		}
		if _, err := os.Stat(path); err == nil {
			continue // same name, same bytes
		}
		if len(todo) == 0 {
			if err := os.Mkdir(dir, 0o700); err == nil {
				fileowner.LikeParent(dir)
			} else if err := os.MkdirAll(dir, 0o700); err != nil {
				return fmt.Errorf("cannot create the snapshot folder: %w", err)
			}
		}
		target, err := resolveLinks(path)
		if err != nil {
			return fmt.Errorf("cannot save the snapshot of %s: %w", fp.Path, err)
		}
		// One file alone is synced as it is written: cheaper than the
		// whole file system.
		tmp, err := writeTemp(target, fp.Content, len(fps) == 1)
		if err != nil {
			return fmt.Errorf("cannot save the snapshot of %s: write %s: %w", fp.Path, target, err)
		}
		todo = append(todo, pending{tmp, target, fp.Path})
	}
	if len(todo) == 0 {
		return nil
	}
	if len(fps) > 1 {
		for _, p := range todo {
			if err := fault("sync", p.target); err != nil {
				return fmt.Errorf("cannot save the snapshot of %s: write %s: %w", p.script, p.target, err)
			}
		}
		if err := fsync.FS(dir); err != nil {
			return fmt.Errorf("cannot save the snapshots in %s: sync: %w", dir, err)
		}
	}
	var last string
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		if err := renameTemp(p.tmp, p.target); err != nil {
			return fmt.Errorf("cannot save the snapshot of %s: write %s: %w", p.script, p.target, err)
		}
		last = p.target
	}
	if err := syncFolder(dir); err != nil {
		return &DirSyncError{Path: last, Dir: dir, Err: err}
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

// swept is when each snapshot folder was last swept of stale temporary
// files by this process.
var swept sync.Map

func sweepSnapshotTemps(dir string, now time.Time) {
	if last, ok := swept.Load(dir); ok && now.Sub(last.(time.Time)) < staleTemp {
		return
	}
	swept.Store(dir, now)
	removeStaleTemps(dir, ".*.tmp-*", now)
}
