// Package fileowner keeps the owner of the files this tool writes when
// root writes them into another user's home (SPEC §13.2 rule 8): a file
// replaced keeps its owner and group, a file created gets its folder's, so
// that `sudo hermes hooks accept` leaves nothing the user cannot read or
// change. For anyone but root it does nothing: their files are theirs.
package fileowner

import (
	"os"
	"path/filepath"
	"syscall"
)

// Keep gives f, a temporary file about to be renamed over target, the
// owner and group target has, or, when target does not exist yet, those
// of target's folder (unless root owns it).
func Keep(f *os.File, target string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	if uid, gid, ok := owner(target); ok {
		return f.Chown(uid, gid)
	}
	if uid, gid, ok := owner(filepath.Dir(target)); ok && uid != 0 {
		return f.Chown(uid, gid)
	}
	return nil
}

// LikeParent gives path, just created by this process, the owner and group
// of its folder when root created it in a folder root does not own. Errors
// are ignored: the file is usable, only less convenient.
func LikeParent(path string) {
	if os.Geteuid() != 0 {
		return
	}
	if uid, gid, ok := owner(filepath.Dir(path)); ok && uid != 0 {
		_ = os.Lchown(path, uid, gid)
	}
}

func owner(path string) (uid, gid int, ok bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
