package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// ScanSection is the lock's record of the hooks a checkout brings (SPEC
// §27, `hermes hooks scan --write-lock`): each with its code's hashes, so
// `scan --lock` can say what is new, changed or gone since review.
type ScanSection struct {
	Hooks []ScanHook `json:"hooks"`
}

// ScanHook is one hook of a checkout. Its line is not recorded: moving a
// hook within its file is not a change.
type ScanHook struct {
	Agent   string     `json:"agent"`
	File    string     `json:"file"`
	Event   string     `json:"event"`
	Matcher *string    `json:"matcher"`
	Command string     `json:"command"`
	Code    []ScanCode `json:"code"`
}

// ScanCode is one file of a hook's code: pinned (sha256; "" when it could
// not be read) or a system file (path only, trusted by ownership, SPEC
// §23), its path relative to the checkout when inside it.
type ScanCode struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256,omitempty"`
	System bool   `json:"system,omitempty"`
}

// KindScanHook is the Kind of a Difference about a checkout's hook.
const KindScanHook = "scan_hook"

// sortScan orders hooks by agent, file, event, then command, so the same
// checkout always gives the same bytes.
func (s *ScanSection) sort() {
	if s.Hooks == nil {
		s.Hooks = []ScanHook{}
	}
	sort.SliceStable(s.Hooks, func(i, j int) bool { return scanKey(s.Hooks[i]) < scanKey(s.Hooks[j]) })
	for i := range s.Hooks {
		if s.Hooks[i].Code == nil {
			s.Hooks[i].Code = []ScanCode{}
		}
	}
}

func scanKey(h ScanHook) string {
	m := "\x00"
	if h.Matcher != nil {
		m = "=" + *h.Matcher
	}
	return strings.Join([]string{h.Agent, h.File, h.Event, m, h.Command}, "\x00")
}

// ReadScan reads a lock file's scan section. A lock with none is an error
// that says how to write one.
func ReadScan(path string) (*ScanSection, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		reason := err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			reason = "it does not exist"
		}
		return nil, &ScanError{Path: path, Reason: reason, Err: err}
	}
	l, err := parseWithScan(path, data)
	if err != nil {
		return nil, err
	}
	if l.Scan == nil {
		return nil, &ScanError{Path: path, Reason: "it has no scan section"}
	}
	l.Scan.sort()
	return l.Scan, nil
}

// parseWithScan reads a lock as Parse does, its errors said for scan.
func parseWithScan(path string, data []byte) (*Lock, error) {
	l, err := Parse(path, data)
	var le *Error
	if errors.As(err, &le) {
		return nil, &ScanError{Path: path, Reason: le.Reason, Err: le.Err}
	}
	return l, err
}

// ScanError says a lock file cannot be used for a scan (exit 2).
type ScanError struct {
	Path   string
	Reason string
	Err    error
}

func (e *ScanError) Error() string {
	return fmt.Sprintf("lock file %s cannot be used: %s (write it with 'hermes hooks scan --write-lock %s')", e.Path, e.Reason, e.Path)
}

func (e *ScanError) Unwrap() error { return e.Err }

// WriteScan writes s as the scan section of the lock at path, keeping the
// lock's other sections when the file already is a lock (one file can
// hold a team's home and its checkout), else writing a lock with empty
// ones.
func WriteScan(path string, s *ScanSection) error {
	l := &Lock{}
	if data, err := regfile.ReadFile(path); err == nil {
		if old, err := Parse(path, data); err == nil {
			l = old
		}
	}
	c := *s
	c.Hooks = append([]ScanHook(nil), s.Hooks...)
	c.sort()
	l.Scan = &c
	return writeBytes(path, Marshal(l))
}

// CompareScan lists how the checkout now (got) differs from the lock
// (want), in both directions: removed and changed hooks in the lock's
// order, then added ones.
func CompareScan(want, got *ScanSection) []Difference {
	w, g := *want, *got
	w.sort()
	g.sort()
	var out []Difference
	added := match(w.Hooks, g.Hooks, scanKey, func(a, b ScanHook, found bool) {
		if !found {
			out = append(out, Difference{Kind: KindScanHook, Change: Removed, Name: ScanName(a)})
		} else if d := scanDetail(a.Code, b.Code); d != "" {
			out = append(out, Difference{Kind: KindScanHook, Change: Changed, Name: ScanName(a), Detail: d})
		}
	})
	for _, h := range added {
		out = append(out, Difference{Kind: KindScanHook, Change: Added, Name: ScanName(h)})
	}
	return out
}

// ScanName names a checkout's hook in a difference.
func ScanName(h ScanHook) string {
	s := fmt.Sprintf("%s %s %s", h.Agent, h.File, h.Event)
	if h.Matcher != nil {
		s += fmt.Sprintf(" (matcher %q)", *h.Matcher)
	}
	return s + ": " + h.Command
}

// scanDetail names each file of the code that differs.
func scanDetail(want, got []ScanCode) string {
	var parts []string
	extra := match(want, got, func(c ScanCode) string { return c.Path }, func(w, g ScanCode, found bool) {
		switch {
		case !found:
			parts = append(parts, w.Path+" no longer part of the code")
		case w.System != g.System:
			parts = append(parts, w.Path+" changed between a system file and a pinned one")
		case w.SHA256 != g.SHA256:
			parts = append(parts, fmt.Sprintf("%s changed (sha256 %s in the lock, %s now)", w.Path, orNone(w.SHA256), orNone(g.SHA256)))
		}
	})
	for _, g := range extra {
		parts = append(parts, g.Path+" is new in the code")
	}
	return strings.Join(parts, "; ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// writeBytes writes a lock atomically (a temporary file in the same
// folder, then a rename), so a reader never sees half a lock.
func writeBytes(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hooks.lock-*")
	if err != nil {
		return fmt.Errorf("writing the lock %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("writing the lock %s: %w", path, err)
	}
	return nil
}
