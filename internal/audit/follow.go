package audit

import (
	"io"
	"os"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Follow calls fn with every line of the log at path — the rotated file
// first, then the log — and then with each line appended, until wait or fn
// returns an error, which Follow returns. wait blocks until the log may
// have changed (a file event, a tick). A rotation is followed: the old
// file is read to its end, then the new one from its start. Unreadable
// lines are counted in the result, per file.
func Follow(path string, fn func(Line) error, wait func() error) ([]Skipped, error) {
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
			cur.Close()
			note(rd)
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
