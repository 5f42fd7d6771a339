package allowlist

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/fsync"
)

// staleTemp is the age after which a temporary file of writeAtomic is taken
// to belong to a writer that was killed between creating and renaming it.
// No live write takes anywhere near this long.
const staleTemp = time.Minute

// Fault, when not nil, is asked before each step of a write (op "create",
// "write", "sync", "rename", "syncdir") and before a script is read to be
// hashed ("read"), with the file's path; an error it returns stands for
// that system call's. It is the seam through which tests inject a full
// disk or an I/O error; nothing else sets it.
var Fault func(op, path string) error

func fault(op, path string) error {
	if Fault == nil {
		return nil
	}
	return Fault(op, path)
}

// DirSyncError says a file was replaced (the rename succeeded) but its
// folder could not be synced: the change is there, but may not survive a
// crash. It is not "saving failed" (SPEC §22).
type DirSyncError struct {
	Path, Dir string
	Err       error
}

func (e *DirSyncError) Error() string {
	return fmt.Sprintf("%s was replaced, but its folder %s could not be synced (%v): the change is made but may not survive a crash; check the disk",
		e.Path, e.Dir, e.Err)
}

func (e *DirSyncError) Unwrap() error { return e.Err }

// writeAtomic replaces path with data so a reader sees the old file or the
// new one, never a part: a temporary file beside the target, mode 0600,
// synced, renamed over it, then the folder synced so the rename survives a
// crash. When path is a symlink the file it points to is replaced and the
// link kept. Errors name the file and the OS reason.
func writeAtomic(path string, data []byte) error {
	target, err := resolveLinks(path)
	if err != nil {
		return err
	}
	name, err := writeTemp(target, data, true)
	if err == nil {
		err = renameTemp(name, target)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	dir := filepath.Dir(target)
	if err := syncFolder(dir); err != nil {
		return &DirSyncError{Path: target, Dir: dir, Err: err}
	}
	return nil
}

// writeTemp writes data to a new temporary file beside target, mode 0600,
// owned like target, synced when sync is set, and returns its name; on an
// error nothing is left.
func writeTemp(target string, data []byte, sync bool) (string, error) {
	if err := fault("create", target); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	err = tmp.Chmod(0o600)
	if err == nil {
		// Root writing a user's allowlist or snapshot leaves it theirs.
		err = fileowner.Keep(tmp, target)
	}
	if err == nil {
		err = fault("write", target)
	}
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil && sync {
		if err = fault("sync", target); err == nil {
			err = tmp.Sync()
		}
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// renameTemp renames the temporary file name over target; on an error the
// temporary file is removed.
func renameTemp(name, target string) error {
	err := fault("rename", target)
	if err == nil {
		err = os.Rename(name, target)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// resolveLinks follows path while it is a symlink (a dangling link resolves
// to the missing file it names, which the write then creates).
func resolveLinks(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", fmt.Errorf("write %s: %w", path, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("write %s: too many levels of symbolic links", path)
}

func syncDir(dir string) error {
	if err := syncFolder(dir); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
}

func syncFolder(dir string) error {
	if err := fault("syncdir", dir); err != nil {
		return err
	}
	return fsync.Dir(dir)
}

// removeStaleTemps deletes temporary files that writeAtomic left in dir
// (pattern names them) when its process was killed before the rename: they
// would otherwise pile up forever. Only files older than staleTemp go, so a
// write in progress through another path to the same folder is never hit.
func removeStaleTemps(dir, pattern string, now time.Time) {
	names, _ := filepath.Glob(filepath.Join(dir, pattern))
	for _, name := range names {
		if fi, err := os.Lstat(name); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > staleTemp {
			os.Remove(name)
		}
	}
}
