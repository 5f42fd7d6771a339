package allowlist

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
)

// staleTemp is the age after which a temporary file of writeAtomic is taken
// to belong to a writer that was killed between creating and renaming it.
// No live write takes anywhere near this long.
const staleTemp = time.Minute

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
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	name := tmp.Name()
	err = tmp.Chmod(0o600)
	if err == nil {
		// Root writing a user's allowlist or snapshot leaves it theirs.
		err = fileowner.Keep(tmp, target)
	}
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, target)
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", target, err)
	}
	return syncDir(dir)
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
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync folder %s: %w", dir, err)
	}
	return nil
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
