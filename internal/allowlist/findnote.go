package allowlist

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// The guard looks up one entry on every tool call (SPEC §29 item 3). The
// walk of FindFirst is linear in the file; a note of where the entry was,
// kept per hook in <HERMES_HOME>/cache/guard/, lets every later lookup in
// the same version of the file read that entry alone. A note is only a
// hint: the entry it points at is read and checked again (its event, and
// its command against the guard's argv), so a stale or forged note can at
// most choose between two approvals of the same command, never approve
// anything; a version of the file is known by its device, inode, size and
// change time (any write or replacement changes one of them).

// noteID is a version of the allowlist file.
type noteID struct {
	dev, ino, size uint64
	ctime          int64
}

func fileID(fi fs.FileInfo) noteID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return noteID{}
	}
	return noteID{uint64(st.Dev), st.Ino, uint64(st.Size), st.Ctim.Nano()}
}

// notePath is where the note named name lives.
func (s *Store) notePath(name string) string {
	return filepath.Join(filepath.Dir(s.Path), "cache", "guard", name)
}

// readNoted reads the entry the note at path points at in f, when the note
// is for this version of the file and the entry is still event's and
// accepted by match.
func readNoted(f *os.File, path string, id noteID, event string, match func(string) bool) (Entry, bool) {
	if id == (noteID{}) {
		return Entry{}, false
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 256 {
		return Entry{}, false
	}
	n, at, size, ok := parseNote(data)
	if !ok || n != id || at < 0 || size <= 0 || size > 1<<20 || uint64(at+size) > id.size {
		return Entry{}, false
	}
	item := make([]byte, size)
	if _, err := f.ReadAt(item, at); err != nil || item[0] != '{' || !utf8.Valid(item) {
		return Entry{}, false
	}
	e, ok := entryFrom(item, newText(item))
	if !ok || e.Event != event || !match(e.Command) {
		return Entry{}, false
	}
	return e, true
}

// parseNote reads a note's six numbers (writeNote's line): strconv, not
// fmt.Sscanf, whose reflection the guard paid on every run.
func parseNote(data []byte) (n noteID, at, size int64, ok bool) {
	line, found := strings.CutSuffix(string(data), "\n")
	f := strings.Split(line, " ")
	if !found || len(f) != 6 {
		return noteID{}, 0, 0, false
	}
	var u [3]uint64
	var v [3]int64
	var err error
	for i := range 3 {
		if u[i], err = strconv.ParseUint(f[i], 10, 64); err != nil {
			return noteID{}, 0, 0, false
		}
		if v[i], err = strconv.ParseInt(f[3+i], 10, 64); err != nil {
			return noteID{}, 0, 0, false
		}
	}
	return noteID{u[0], u[1], u[2], v[0]}, v[1], v[2], true
}

// writeNote keeps the note, atomically; a note that cannot be written is
// no error (the next lookup walks again).
func writeNote(path string, id noteID, at, size int64) {
	if id == (noteID{}) {
		return
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".note-*")
	if err != nil {
		return
	}
	_, werr := fmt.Fprintf(tmp, "%d %d %d %d %d %d\n", id.dev, id.ino, id.size, id.ctime, at, size)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}
