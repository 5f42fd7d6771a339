package scan

import (
	"os"
	"path/filepath"
)

// Root is the folder scan reads when none is given: the root of the git
// repository holding dir (the nearest folder up with a .git, a folder or a
// worktree's file), else dir itself.
func Root(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}
