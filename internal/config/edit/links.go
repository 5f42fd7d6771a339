package edit

import (
	"fmt"
	"io/fs"
	"syscall"
)

// ErrHardLinked is the error of an edit refused because the config has
// more than one hard link.
var ErrHardLinked = fmt.Errorf("the config has more than one hard link")

// refuseHardLinks refuses to replace a file with other hard links (SPEC
// §13.2 rule 8): the rename would give this name new content and leave
// the other names the old one, silently splitting what was one config.
func refuseHardLinks(path string, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink <= 1 {
		return nil
	}
	return fmt.Errorf("%s has %d hard links, and an edit (written to a new file renamed over it) would split them, leaving the other names the old content; nothing was written: edit it by hand, or replace the extra links with symbolic links (%w)", path, st.Nlink, ErrHardLinked)
}
