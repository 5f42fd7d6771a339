package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes/internal/fileowner"
)

// NewFileMode is the mode of a config file this package creates: it may
// hold keys, so only its owner reads it.
const NewFileMode = 0o600

// maxRedo bounds how often an edit is redone because the file kept
// changing under it.
const maxRedo = 5

// Target is where edits of path land: the file a symlink points to (so the
// link is kept), or path itself.
func Target(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return path, nil
	}
	t, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s is a symbolic link to a file that does not exist; fix or remove the link", path)
	}
	return t, err
}

// ReadFile reads the file at path (following links). A missing file reads
// as empty, exists false. Anything but a regular file is an error.
func ReadFile(path string) (data []byte, exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%s is not a regular file", path)
	}
	data, err = os.ReadFile(path)
	return data, err == nil, err
}

// UpdateFile reads path, computes the new content with change, and
// replaces the file atomically (a temporary file in the same folder,
// synced, renamed over it; the mode kept; a symlink kept, its target
// replaced). When the file changed on disk while change ran, the edit is
// redone on the new content. It returns the content before and after;
// equal bytes mean nothing was written.
func UpdateFile(path string, change func(old []byte) ([]byte, error)) (before, after []byte, err error) {
	target, err := Target(path)
	if err != nil {
		return nil, nil, err
	}
	for range maxRedo {
		old, exists, err := ReadFile(target)
		if err != nil {
			return nil, nil, err
		}
		mode := fs.FileMode(NewFileMode)
		if exists {
			if fi, err := os.Stat(target); err == nil {
				mode = fi.Mode().Perm()
				if err := refuseHardLinks(target, fi); err != nil {
					return old, nil, err
				}
			}
		}
		updated, err := change(old)
		if err != nil {
			return old, nil, err
		}
		if bytes.Equal(old, updated) && (exists || len(updated) == 0) {
			return old, updated, nil
		}
		tmp, err := writeTemp(target, updated, mode)
		if err != nil {
			return old, nil, err
		}
		// Did someone write the file meanwhile? Then start again from
		// what they wrote rather than overwrite it.
		now, nowExists, err := ReadFile(target)
		if err != nil || nowExists != exists || !bytes.Equal(now, old) {
			os.Remove(tmp)
			if err != nil {
				return old, nil, err
			}
			continue
		}
		if err := os.Rename(tmp, target); err != nil {
			os.Remove(tmp)
			return old, nil, fmt.Errorf("replacing %s: %w", target, err)
		}
		syncDir(filepath.Dir(target))
		return old, updated, nil
	}
	return nil, nil, fmt.Errorf("%s kept changing while it was being edited; nothing was written, try again", target)
}

func writeTemp(target string, data []byte, mode fs.FileMode) (string, error) {
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("cannot write in %s: %w; %s is unchanged", dir, err, target)
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = fileowner.Keep(f, target)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("writing %s: %w; %s is unchanged", name, err, target)
	}
	return name, nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
