package allowlist

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// FileName is the allowlist's name inside HERMES_HOME.
const FileName = "shell-hooks-allowlist.json"

// ErrUnchanged, returned by an Update callback, means there is nothing to
// write: the file is left as it is.
var ErrUnchanged = errors.New("allowlist unchanged")

// Store is the allowlist file at Path.
type Store struct {
	Path string
	// Now stamps the name a corrupt file is kept under.
	Now func() time.Time
	// Wait says how Update waits for a lock another process holds.
	Wait LockWait

	// ahead is the reading ReadAhead started, for the next Read; aheadMu
	// keeps Read safe to call from several goroutines.
	aheadMu sync.Mutex
	ahead   chan readResult

	// known is the file as this process last read or wrote it, with the
	// list it holds: an Update that reads the same bytes starts from a
	// copy of that list rather than decoding them again (protect and
	// unprotect update the allowlist twice around the config's edit, each
	// time reading what was just read or written: a second a time at
	// 100,000 approvals, SPEC §29 item 2).
	knownMu sync.Mutex
	known   *knownFile
}

// decodes counts the files read decoded (the tests see reuse by it).
var decodes atomic.Int64

// knownFile is a file's bytes and the list they hold. The list is never
// changed: it is copied for use.
type knownFile struct {
	data     []byte
	list     *List
	warnings []string
}

// remember records that data holds l (and reading it gives warnings).
func (s *Store) remember(data []byte, l *List, warnings []string) {
	s.knownMu.Lock()
	s.known = &knownFile{data, l, warnings}
	s.knownMu.Unlock()
}

// reuse is a copy of the list data holds, when data is the file as this
// process last read or wrote it.
func (s *Store) reuse(data []byte) (*List, []string, bool) {
	s.knownMu.Lock()
	k := s.known
	s.knownMu.Unlock()
	if k == nil || !bytes.Equal(k.data, data) {
		return nil, nil, false
	}
	return k.list.clone(), slices.Clone(k.warnings), true
}

type readResult struct {
	list     *List
	warnings []string
	err      error
}

// Open returns the store of the allowlist in hermesHome.
func Open(hermesHome string) *Store {
	return &Store{Path: filepath.Join(hermesHome, FileName), Now: time.Now}
}

// LockPath is the file Update holds an exclusive flock on.
func (s *Store) LockPath() string { return s.Path + ".lock" }

// Read returns the allowlist without locking or writing anything. A missing
// file is an empty list; a file that cannot be used reads as empty with a
// warning naming it. Only an I/O failure is an error. The list is shared
// (several goroutines may Find in it, a later Update may copy it): it is
// not to be changed.
//
// After ReadAhead, the first Read returns the reading it started.
func (s *Store) Read() (*List, []string, error) {
	if ch := s.takeAhead(); ch != nil {
		r := <-ch
		return r.list, r.warnings, r.err
	}
	l, warnings, _, err := s.read(true)
	return l, warnings, err
}

// ReadAhead starts reading the file in the background, for the next Read:
// a command reads the allowlist and parses the config (the two costly
// steps of loading) side by side. The reading is no older than the call;
// Update never uses it (it reads again under the lock) and drops it, so a
// Read after an Update sees the update.
func (s *Store) ReadAhead() {
	ch := make(chan readResult, 1)
	s.aheadMu.Lock()
	s.ahead = ch
	s.aheadMu.Unlock()
	go func() {
		l, warnings, _, err := s.read(true)
		ch <- readResult{l, warnings, err}
	}()
}

// takeAhead returns the pending reading ahead, if any, and forgets it.
func (s *Store) takeAhead() chan readResult {
	s.aheadMu.Lock()
	defer s.aheadMu.Unlock()
	ch := s.ahead
	s.ahead = nil
	return ch
}

// read also returns the bytes of a corrupt file and why it is corrupt, for
// Update to keep them aside. shared: the list is handed to callers, who
// may Find from several goroutines, so its index is built now; a list
// only changed under the lock (Update, Swap) builds it when it needs it,
// if at all (unprotect's second write drops 100,000 entries of 200,000
// without one).
func (s *Store) read(shared bool) (l *List, warnings []string, bad *corruptFile, err error) {
	data, err := regfile.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		l = &List{}
		l.Index()
		return l, nil, nil, nil
	}
	var notRegular *regfile.NotRegularError
	if errors.As(err, &notRegular) {
		return nil, nil, nil, fmt.Errorf("cannot read the allowlist: %w; move it away (hermes writes a new one)", err)
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("cannot read the allowlist: %w; check the file's permissions", err)
	}
	if !shared {
		if l, warnings, ok := s.reuse(data); ok {
			return l, warnings, nil, nil
		}
	}
	decodes.Add(1)
	l, warnings, reason := decode(data, s.Path)
	if shared {
		l.Index() // built now, so concurrent Finds only read
		if reason == "" {
			s.remember(data, l, warnings)
		}
	}
	if reason != "" {
		bad = &corruptFile{data: data, reason: reason}
		warnings = append(warnings, fmt.Sprintf(
			"allowlist %s is %s; reading it as empty (it will be kept as %s.corrupt-<time> before the next change)",
			s.Path, reason, filepath.Base(s.Path)))
	}
	return l, warnings, bad, nil
}

type corruptFile struct {
	data   []byte
	reason string
}

// Update runs fn on the current list and writes the result, all under an
// exclusive flock of LockPath, so concurrent approvals from many processes
// are all kept. fn returning ErrUnchanged skips the write; any other error
// from fn is returned as is. A corrupt file is copied aside before it is
// replaced, and the warning says where. A *DirSyncError means the file was
// written and only its folder's sync failed.
func (s *Store) Update(fn func(*List) error) ([]string, error) {
	ctx, unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()

	l, warnings, bad, err := s.read(false)
	if err != nil {
		return warnings, err
	}
	if err := fn(l); err != nil {
		if errors.Is(err, ErrUnchanged) {
			return warnings, nil
		}
		return warnings, err
	}
	// An interrupt while fn ran (a prompt, a hash) means nothing is written.
	if err := ctx.Err(); err != nil {
		return warnings, err
	}
	if bad != nil {
		aside, err := s.keepAside(bad.data)
		if err != nil {
			return warnings, err
		}
		// Replace the read-time warning: the file is now somewhere definite.
		warnings[len(warnings)-1] = fmt.Sprintf(
			"allowlist %s was %s; it was kept as %s and a new allowlist was written", s.Path, bad.reason, aside)
	}
	// A DirSyncError: the new allowlist is in place; the caller says so.
	data := l.encodeKeeping()
	err = s.write(data)
	var unsynced *DirSyncError
	if (err == nil || errors.As(err, &unsynced)) && len(l.odd) == 0 {
		// What reading the file back would give (malformed items would
		// add warnings; such a list is read again).
		s.remember(data, l, nil)
	}
	return warnings, err
}

// lock takes the allowlist's lock for a read-modify-write (Update, Swap),
// creating its folder first, and returns the context that bounds the wait
// (an interrupt after it means nothing is written) and the unlock. A
// read-ahead is dropped: what is read under the lock is what counts.
func (s *Store) lock() (context.Context, func(), error) {
	s.takeAhead()
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("cannot create the folder of the allowlist: %w", err)
	}
	ctx := s.Wait.context()
	unlock, err := lockWait(ctx, s.LockPath(), s.Wait)
	if err != nil {
		return nil, nil, err
	}
	return ctx, unlock, nil
}

// write replaces the allowlist with data, held under the lock by the
// caller. A *DirSyncError means the file was written and only its
// folder's sync failed.
func (s *Store) write(data []byte) error {
	// Temporary files of killed writes go before this one is written: on a
	// full disk they may be what is in the way.
	if target, err := resolveLinks(s.Path); err == nil {
		removeStaleTemps(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*", time.Now())
	}
	err := writeAtomic(s.Path, data)
	var unsynced *DirSyncError
	if err != nil && !errors.As(err, &unsynced) {
		return fmt.Errorf("cannot save the allowlist: %w", err)
	}
	return err
}

// keepAside copies a corrupt allowlist to <path>.corrupt-<UTC time>, never
// overwriting an earlier copy.
func (s *Store) keepAside(data []byte) (string, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	base := s.Path + ".corrupt-" + now().UTC().Format("20060102T150405Z")
	for n := 1; ; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s-%d", base, n)
		}
		err := writeNew(name, data)
		if errors.Is(err, fs.ErrExist) && n < 1000 {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("cannot keep the unreadable allowlist aside, so it was not replaced: %w", err)
		}
		return name, nil
	}
}

// writeNew creates name (failing if it exists) with data, mode 0600, synced.
func writeNew(name string, data []byte) error {
	if err := fault("create", name); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = fileowner.Keep(f, name)
	if err == nil {
		err = fault("write", name)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return syncDir(filepath.Dir(name))
}
