package safepath

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes/internal/memo"
)

// Resolver is filepath.EvalSymlinks for many files in few folders: each
// folder is resolved once, then each file costs one lstat (SPEC §29 item
// 2: 100,000 hooks with scripts of their own paid a stat per component of
// each path, twice). It remembers folders, and the lstat of each file, for
// one invocation, as the Checker does: the caches of display and planning
// that share one ask the disk about a script once (they asked five times:
// whether it is there, resolving it, judging its owner, whether it is a
// regular file, and whether it can run). The zero value is ready, and a
// nil *Resolver remembers nothing.
type Resolver struct {
	dirs  memo.Map[string, resolved]
	files memo.Map[string, lstated]
}

type resolved struct {
	real string
	err  error
}

type lstated struct {
	fi  fs.FileInfo
	err error
}

// Lstat is os.Lstat(path), asked once per path.
func (r *Resolver) Lstat(path string) (fs.FileInfo, error) {
	if r == nil {
		return os.Lstat(path)
	}
	l := r.files.Get(path, func() lstated {
		fi, err := os.Lstat(path)
		return lstated{fi, err}
	})
	return l.fi, l.err
}

// Stat is os.Stat(path): the Lstat of a path that is not a symlink (the
// two differ only in following a last component that is one, so they fail
// alike too), a stat now for one that is.
func (r *Resolver) Stat(path string) (fs.FileInfo, error) {
	fi, err := r.Lstat(path)
	if pe, ok := err.(*fs.PathError); ok {
		return nil, &fs.PathError{Op: "stat", Path: pe.Path, Err: pe.Err} // as os.Stat words it
	}
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, err
	}
	return os.Stat(path)
}

// EvalSymlinks is filepath.EvalSymlinks(path). An absolute, clean path
// whose last component is not a symlink is its folder resolved (once)
// joined with that component; anything else, and any error, is
// filepath.EvalSymlinks's own answer.
func (r *Resolver) EvalSymlinks(path string) (string, error) {
	real, _, err := r.evalSymlinksInfo(path)
	return real, err
}

// evalSymlinksInfo is EvalSymlinks, with the lstat of the file it
// resolved to when it made one (nil otherwise): the Checker judges the
// file by it rather than asking again.
func (r *Resolver) evalSymlinksInfo(path string) (string, fs.FileInfo, error) {
	if r == nil || !filepath.IsAbs(path) || filepath.Clean(path) != path || path == "/" {
		real, err := filepath.EvalSymlinks(path)
		return real, nil, err
	}
	dir, base := filepath.Split(path)
	d := r.dirs.Get(dir, func() resolved {
		real, err := filepath.EvalSymlinks(dir)
		return resolved{real, err}
	})
	if d.err != nil {
		real, err := filepath.EvalSymlinks(path)
		return real, nil, err
	}
	real := filepath.Join(d.real, base)
	fi, err := r.Lstat(real)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		return real, nil, err
	}
	return real, fi, nil
}
