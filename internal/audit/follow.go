package audit

import (
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Follow calls fn with every line of the log at path — the rotated file
// first, then the log — and then with each line appended, until wait or fn
// returns an error, which Follow returns. wait blocks until the log may
// have changed (a file event, a tick). A rotation is followed: the old
// file is read to its end, then the new one from its start. Unreadable
// lines are counted in the result, per file.
func Follow(path string, fn func(Line) error, wait func() error) ([]Skipped, error) {
	return FollowGaps(path, fn, wait, nil)
}

// FollowGaps is Follow that also survives a stall (a slow reader, a
// stopped process) across several rotations (SPEC §29 item 6): after the
// file it was reading, it prints the whole of the rotated file when that is
// a later one, then the log. When a file was rotated away unread in
// between, gap (when not nil) is called with the number of its lines, -1
// when that is not known (the file is gone).
func FollowGaps(path string, fn func(Line) error, wait func() error, gap func(lines int)) ([]Skipped, error) {
	files, err := openBoth(path)
	if err != nil {
		return nil, err
	}
	var skipped []Skipped
	note := func(rd *Reader) {
		if rd != nil && rd.Skipped > 0 {
			skipped = append(skipped, Skipped{Path: rd.Path, Lines: rd.Skipped})
			rd.Skipped = 0
		}
	}
	var cur *os.File
	var rd *Reader
	for _, f := range files {
		if f.Name() == path {
			cur, rd = f, NewReader(path, f)
			continue
		}
		old := NewReader(f.Name(), f)
		err := drain(old, fn, true)
		f.Close()
		note(old)
		if err != nil {
			if cur != nil {
				cur.Close()
			}
			return skipped, err
		}
	}
	defer func() {
		if cur != nil {
			cur.Close()
		}
	}()
	for {
		if rd != nil {
			if err := drain(rd, fn, false); err != nil {
				return skipped, err
			}
		}
		if err := wait(); err != nil {
			note(rd)
			return skipped, err
		}
		if cur != nil && sameFile(cur, path) {
			// A cut append taken back leaves the file shorter than what
			// was read: read on from the last whole line.
			if fi, err := cur.Stat(); err == nil && fi.Size() < rd.Held() {
				if err := rd.Rewind(cur, cur); err != nil {
					return skipped, err
				}
			}
			continue
		}
		next, err := regfile.Open(path)
		if err != nil {
			continue // between a rotation's rename and the new file: next time
		}
		if cur != nil {
			// Rotated: no writer appends to the old file any more (they
			// open the log under the lock that rotation holds).
			err := drain(rd, fn, true)
			note(rd)
			if err == nil {
				err = drainLater(path, cur, next, fn, gap, note)
			}
			cur.Close()
			if err != nil {
				next.Close()
				return skipped, err
			}
		}
		cur, rd = next, NewReader(path, next)
	}
}

// drain passes every whole line rd has to fn; at the end of a file that
// is complete (final), a last line without a newline counts too.
func drain(rd *Reader, fn func(Line) error, final bool) error {
	for {
		l, err := rd.Next()
		if err == io.EOF {
			if final {
				if l, ok := rd.Flush(); ok {
					return fn(l)
				}
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(l); err != nil {
			return err
		}
	}
}

// drainLater prints the rotated file when it is neither cur (the file just
// read to its end) nor next (the log now): it was rotated in after cur, so
// cur was rotated at least twice while the follower was away. A file rotated
// away between cur and it is reported to gap.
func drainLater(path string, cur, next *os.File, fn func(Line) error, gap func(int), note func(*Reader)) error {
	old, err := regfile.Open(RotatedPath(path))
	if err != nil {
		return nil
	}
	defer old.Close()
	if sameOpen(old, cur) || sameOpen(old, next) {
		return nil
	}
	if gap != nil && rotatedAfterRemoval(old, cur) {
		gap(-1)
	}
	rd := NewReader(old.Name(), old)
	err = drain(rd, fn, true)
	note(rd)
	return err
}

// sameOpen: a and b are one file.
func sameOpen(a, b *os.File) bool {
	x, err1 := a.Stat()
	y, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}

// rotatedAfterRemoval: later (the file now rotated) was created no earlier
// than cur was removed, so the file between them, the one that took cur's
// place when cur was rotated, was itself rotated away. A file is created by
// the first append after a rotation and removed by the rotation after the
// next, so the file right after cur was created before cur was removed.
// Where a file system keeps no creation time, a later file counts as past a
// gap.
func rotatedAfterRemoval(later, cur *os.File) bool {
	var c unix.Statx_t
	if err := unix.Statx(int(cur.Fd()), "", unix.AT_EMPTY_PATH, unix.STATX_NLINK|unix.STATX_CTIME, &c); err != nil || c.Nlink > 0 {
		return false // cur is still there: no file between (or cannot tell)
	}
	var l unix.Statx_t
	if err := unix.Statx(int(later.Fd()), "", unix.AT_EMPTY_PATH, unix.STATX_BTIME, &l); err != nil || l.Mask&unix.STATX_BTIME == 0 {
		return true
	}
	removed := time.Unix(c.Ctime.Sec, int64(c.Ctime.Nsec))
	created := time.Unix(l.Btime.Sec, int64(l.Btime.Nsec))
	return !created.Before(removed)
}
