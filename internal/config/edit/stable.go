package edit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// A file being rewritten in place (truncated, then written) can be read
// half-written, and two quick reads can agree on the half. readStable
// therefore also waits until the file has not been modified for quietFor —
// emptyQuietFor for an empty file, the state a rewrite starts from, which a
// writer stalled by a busy machine can leave for a while — and gives up
// after settleWithin.
//
// When a read lease cannot be had (a process holds the file open for
// writing: an editor, a log shipper, often idle for hours), the bytes alone
// must tell: the reads must agree, and the file stay unmodified, over
// writerQuietFor (SPEC §29 item 8) — far longer than any pause of a program
// in the middle of a save.
const (
	quietFor       = 10 * time.Millisecond
	emptyQuietFor  = 250 * time.Millisecond
	writerQuietFor = 300 * time.Millisecond
	settleWithin   = 3 * time.Second
)

// snapshot is one read of the file: its bytes and what identifies the
// version read.
type snapshot struct {
	data     []byte
	exists   bool
	mode     fs.FileMode
	dev, ino uint64
	size     int64
	mtime    time.Time
	whole    bool // nothing changed the file while it was read
	// writerOpen: a process had the file open for writing (no read lease
	// could be had); see writerQuietFor.
	writerOpen bool
	readAt     time.Time
	parsed     bool
	settings   int // the values of the document, when parsed
}

// same: two reads of one version of the file.
func (s snapshot) same(o snapshot) bool {
	if s.exists != o.exists {
		return false
	}
	if !s.exists {
		return true
	}
	return s.whole && o.whole && s.dev == o.dev && s.ino == o.ino && s.size == o.size &&
		s.mtime.Equal(o.mtime) && bytes.Equal(s.data, o.data)
}

func readOnce(path string) (snapshot, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return snapshot{parsed: true}, nil
	}
	if err != nil {
		return snapshot{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return snapshot{}, err
	}
	if !fi.Mode().IsRegular() {
		return snapshot{}, fmt.Errorf("%s is not a regular file", path)
	}
	// A read lease is granted only while no process has the file open for
	// writing: a program rewriting it in place is seen even when it stalls
	// mid-write. Where leases are not available (another owner, a file
	// system without them) the reads and the quiet time decide alone.
	writing := false
	switch _, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK); err {
	case nil:
		defer unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_UNLCK)
	case unix.EAGAIN:
		writing = true
	}
	s := snapshot{exists: true, mode: fi.Mode().Perm(), size: fi.Size(), mtime: fi.ModTime(), writerOpen: writing, readAt: time.Now()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.dev, s.ino = uint64(st.Dev), st.Ino
	}
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+512))
	if _, err := io.Copy(buf, f); err != nil {
		return snapshot{}, err
	}
	s.data = buf.Bytes()
	after, err := f.Stat()
	if err != nil {
		return snapshot{}, err
	}
	// Whole: the size and time did not move while reading, the bytes are
	// as many as the size said, and the path still names this file.
	s.whole = after.Size() == s.size && after.ModTime().Equal(s.mtime) && int64(len(s.data)) == s.size
	if now, err := os.Stat(path); err != nil || !os.SameFile(fi, now) {
		s.whole = false
	}
	return s, nil
}

// readStable reads path until two consecutive reads agree (size, time,
// inode, bytes), no process has it open for writing (when leases tell), the
// bytes parse and the file has been quiet (quietFor; emptyQuietFor when
// empty). A file that agrees with itself and is quiet but never
// parses is returned as it is (the edit then reports why it cannot be
// read); one that does not settle within settleWithin is ErrKeptChanging.
//
// known, when not nil, is an earlier read whose parse is reused when the
// bytes are the same (the read before the rename of a large file).
func readStable(ctx context.Context, path string, known *snapshot) (snapshot, error) {
	prev, err := readOnce(path)
	if err != nil {
		return snapshot{}, err
	}
	start := time.Now()
	delay := 100 * time.Microsecond
	var parsedData []byte
	var parsedOK bool
	var parsedCount int
	if known != nil && known.exists {
		parsedData, parsedOK, parsedCount = known.data, known.parsed, known.settings
	}
	// agreeing: since when the reads have agreed (for writerQuietFor); an
	// earlier read of this edit that agrees counts from its time.
	agreeing := prev.readAt
	if known != nil && prev.same(*known) {
		agreeing = known.readAt
	}
	for {
		cur, err := readOnce(path)
		if err != nil {
			return snapshot{}, err
		}
		late := time.Since(start) >= settleWithin
		if !cur.same(prev) {
			agreeing = cur.readAt
		}
		if cur.same(prev) {
			if !cur.exists {
				return cur, nil
			}
			if parsedData == nil || !bytes.Equal(parsedData, cur.data) {
				parsedData = cur.data
				parsedCount, parsedOK = countSettings(cur.data)
			}
			cur.parsed, cur.settings = parsedOK, parsedCount
			need := quietFor
			if len(bytes.TrimSpace(cur.data)) == 0 {
				need = emptyQuietFor
			}
			idle := time.Since(cur.mtime)
			quiet := idle >= need || idle < -time.Second // a time in the future: not ours to judge
			if cur.writerOpen {
				// No lease: only a long agreement tells an idle writer
				// from one stalled in the middle of a save.
				agreed := cur.readAt.Sub(agreeing)
				quiet = (idle >= writerQuietFor || idle < -time.Second) && agreed >= writerQuietFor
			}
			if quiet && (cur.parsed || late) {
				return cur, nil
			}
			if !quiet && !cur.writerOpen {
				delay = max(delay, min(need-idle, 20*time.Millisecond))
			}
		}
		if late {
			return snapshot{}, fmt.Errorf("%s %w: another program is writing it; nothing was written, try again", path, ErrKeptChanging)
		}
		pause := delay
		if cur.writerOpen {
			pause = writerQuietFor / 8 // a whole read each time: not too often
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return snapshot{}, ctx.Err()
		case <-t.C:
		}
		delay = min(delay*2, 5*time.Millisecond)
		prev = cur
	}
}

// countSettings counts the values (scalars that are not keys) of a YAML
// document: a read that saw more of them than the file has now was of a
// fuller version.
//
// The decoding is the config load's when it read the same bytes, and is
// offered on to the edit's Parse of them (the usual case: the file loaded
// is the file read is the file changed), so a file is parsed once for all
// three.
func countSettings(data []byte) (int, bool) {
	p := config.TakeDecoding(data)
	if p == nil {
		p = config.Decode(data)
	}
	config.OfferDecoding(p)
	switch {
	case !p.FirstRead:
		return 0, false
	case p.Fast:
		return p.Values, true // stubs' values too
	}
	return countValues(&p.Doc), true
}

func countValues(n *yaml.Node) int {
	switch n.Kind {
	case yaml.ScalarNode, yaml.AliasNode:
		return 1
	case yaml.MappingNode:
		c := 0
		for i := 1; i < len(n.Content); i += 2 {
			c += countValues(n.Content[i])
		}
		return c
	}
	c := 0
	for _, k := range n.Content {
		c += countValues(k)
	}
	return c
}
