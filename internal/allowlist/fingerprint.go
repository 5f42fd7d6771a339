package allowlist

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"
)

// MaxSnapshot is the largest script whose content is kept for a snapshot.
const MaxSnapshot = 1 << 20

// ErrNoScript is the fingerprint error of a hook with no script path.
var ErrNoScript = errors.New("no script to fingerprint")

// Fingerprint is what a script is now.
type Fingerprint struct {
	Path   string
	SHA256 string    // lowercase hex; "" when Err is set
	Mtime  time.Time // zero when the script could not be stat'ed
	Err    error     // why the script could not be read
	// Content is the script's bytes when it is a regular file of at most
	// MaxSnapshot bytes (non-nil even when empty); shared, do not modify.
	Content []byte
}

// Fingerprinter hashes scripts, each path once per invocation however many
// hooks share it. It is safe for concurrent use; the zero value is ready.
type Fingerprinter struct {
	mu    sync.Mutex
	cache map[string]*fingerprintCall
	// compute is replaced in tests to count the work done.
	compute func(path string) Fingerprint
}

type fingerprintCall struct {
	once sync.Once
	fp   Fingerprint
}

// NewFingerprinter returns an empty Fingerprinter.
func NewFingerprinter() *Fingerprinter { return &Fingerprinter{} }

// Of returns the fingerprint of the script at path, following symlinks (the
// hash is of what exec runs). Concurrent callers for one path share one
// computation.
func (f *Fingerprinter) Of(path string) Fingerprint {
	c, compute := f.call(path)
	if compute == nil {
		compute = fingerprintFile
	}
	c.once.Do(func() { c.fp = compute(path) })
	return c.fp
}

// call is path's computation, made when there is none, and the function
// that computes one.
func (f *Fingerprinter) call(path string) (*fingerprintCall, func(string) Fingerprint) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache == nil {
		f.cache = map[string]*fingerprintCall{}
	}
	c := f.cache[path]
	if c == nil {
		c = &fingerprintCall{}
		f.cache[path] = c
	}
	return c, f.compute
}

// headWhole is the size up to which Head reads a file whole.
const headWhole = 64 << 10

// Head is the first n bytes of the regular file at path (fewer when it is
// shorter), nil when it is not a regular file or cannot be read:
// shell.ReadHead's answer. A file of at most 64 KiB is read whole through
// the same descriptor and its fingerprint kept as Of's answer for path,
// unless Of has one already: a script's #! line and its hash then cost
// one open and one read (SPEC §29 item 2: two of each, for 100,000
// scripts of their own).
func (f *Fingerprinter) Head(path string, n int) []byte {
	fp, file, fi := openScript(path)
	if file == nil {
		return nil
	}
	defer file.Close()
	if fi.Size() > headWhole {
		buf := make([]byte, n)
		m, _ := io.ReadFull(file, buf)
		return buf[:m]
	}
	fp = hashOpen(fp, file, fi)
	c, _ := f.call(path)
	c.once.Do(func() { c.fp = fp })
	head := fp.Content
	if fp.Err != nil || head == nil {
		return nil
	}
	return head[:min(n, len(head)):min(n, len(head))]
}

// FingerprintNow hashes the script at path now, bypassing every cache: what
// a decision to run or approve a hook must use.
func FingerprintNow(path string) Fingerprint { return fingerprintFile(path) }

// fingerprintFile streams the file through sha256, so a huge script costs
// a buffer, not its size, and keeps the bytes only up to MaxSnapshot.
func fingerprintFile(path string) Fingerprint {
	fp, f, fi := openScript(path)
	if f == nil {
		return fp
	}
	defer f.Close()
	return hashOpen(fp, f, fi)
}

// openScript opens the regular file at path to be hashed. When it cannot
// (f is nil), fp says why, with the file's mtime when it has one.
func openScript(path string) (fp Fingerprint, f *os.File, fi fs.FileInfo) {
	fp = Fingerprint{Path: path}
	if path == "" {
		fp.Err = ErrNoScript
		return fp, nil, nil
	}
	err := fault("read", path)
	if err == nil {
		// O_NONBLOCK so a FIFO in place of the script cannot hang the
		// open.
		f, err = os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	}
	if err != nil {
		fp.Err = err
		// A script we may not read can still have an mtime to record (a
		// stat only then: hashing 100,000 scripts made 100,000 more).
		if fi, err := os.Stat(path); err == nil {
			fp.Mtime = fi.ModTime()
		}
		return fp, nil, nil
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		fp.Err = err
		return fp, nil, nil
	}
	fp.Mtime = fi.ModTime()
	if !fi.Mode().IsRegular() {
		f.Close()
		fp.Err = fmt.Errorf("%s is not a regular file", path)
		return fp, nil, nil
	}
	return fp, f, fi
}

// hashOpen reads the script openScript opened, from where it is, to its
// end.
func hashOpen(fp Fingerprint, f *os.File, fi fs.FileInfo) Fingerprint {
	path := fp.Path
	h := sha256.New()
	var content []byte
	if fi.Size() <= MaxSnapshot {
		// Read into the snapshot itself, with room for the byte that
		// finds its end: a script still the size it was stated costs no
		// other buffer (a 4 KiB one per script was 390 MB of garbage for
		// protect --all of 100,000 scripts).
		content = make([]byte, 0, fi.Size()+1)
		for len(content) < cap(content) {
			n, err := f.Read(content[len(content):cap(content)])
			content = content[:len(content)+n]
			if err == io.EOF {
				sum := sha256.Sum256(content)
				fp.SHA256 = hex.EncodeToString(sum[:])
				fp.Content = content
				return fp
			}
			if err != nil {
				fp.Err = fmt.Errorf("read %s: %w", path, err)
				return fp
			}
		}
		h.Write(content) // it grew while read: on below
	}
	// Here only for a script over the snapshot limit, or one that grew
	// while read: small scripts were read straight into their snapshot.
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		h.Write(buf[:n])
		if content != nil {
			if len(content)+n > MaxSnapshot {
				content = nil // grew past the limit while we read
			} else {
				content = append(content, buf[:n]...)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fp.Err = fmt.Errorf("read %s: %w", path, err)
			return fp
		}
	}
	fp.SHA256 = hex.EncodeToString(h.Sum(nil))
	fp.Content = content
	return fp
}

// Drift says how a script compares with what its approval recorded (§8.4).
type Drift string

// Drift states.
const (
	DriftUnchanged Drift = "unchanged"
	DriftTouched   Drift = "touched"
	DriftModified  Drift = "modified"
	DriftMissing   Drift = "missing"
	DriftUnknown   Drift = "unknown"
)

// DriftOf compares an approval with the script's fingerprint now. A script
// that cannot be read is missing whatever was recorded.
//
// The mtimes are compared as the agent compares them: the recorded value
// against the one the agent computes now (MtimeString), to the microsecond.
// A value written by an older hermes, which truncated instead of rounding,
// therefore differs for about half of all files — and so it does for the
// agent, which reports "script modified since approval" for it. With a
// sha256 that is `touched` (harmless; re-approving refreshes it); without
// one it is `modified`, as in the agent. Other spellings of the same
// instant (an offset, seconds as a number) count as equal.
func DriftOf(e Entry, fp Fingerprint) Drift {
	if fp.Err != nil {
		return DriftMissing
	}
	recorded, hasMtime := e.MtimeAtApproval()
	now := AgentMtime(fp.Mtime)
	sameMtime := hasMtime && recorded.Truncate(time.Microsecond).Equal(now)
	if e.ScriptSHA256 != "" {
		switch {
		case e.ScriptSHA256 != fp.SHA256:
			return DriftModified
		case hasMtime && !sameMtime:
			return DriftTouched
		}
		return DriftUnchanged
	}
	switch {
	case !hasMtime:
		return DriftUnknown
	case sameMtime:
		return DriftUnchanged
	case now.After(recorded):
		return DriftModified
	}
	return DriftUnknown
}
