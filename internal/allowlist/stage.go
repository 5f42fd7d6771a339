package allowlist

import (
	"errors"
	"fmt"
)

// Stage adds e after any entry of the same (event, command) without
// replacing it: for a moment both the old sha256 and e's are approved, so
// that a script can be replaced by content the person approved with no
// instant at which the bytes at its path are approved by neither (SPEC §25,
// `hermes hooks edit`). Find still returns the first entry; readers that
// judge a script accept any entry of the pair (Entries). Approve of the
// same pair afterwards removes them all and keeps one.
func (l *List) Stage(e Entry) {
	l.Approvals = append(l.Approvals, e)
	l.index = nil
	l.Index()
}

// Entries are every entry approving (event, command), in file order: one,
// except while a script is being swapped (Stage).
func (l *List) Entries(event, command string) []Entry {
	var out []Entry
	for _, e := range l.Approvals {
		if e.Event == event && e.Command == command {
			out = append(out, e)
		}
	}
	return out
}

// ErrSwapRolledBack wraps a swap's error when the staged approvals were
// withdrawn again: nothing changed.
var ErrSwapRolledBack = errors.New("nothing was changed")

// Swap holds the allowlist lock across three steps, so that no other
// writer comes between them: stage runs on the list, which is written;
// then swap runs (the rename of a script); then commit runs on the list,
// which is written again. When swap fails, the list is written back as it
// was read and the error wraps ErrSwapRolledBack. When commit fails, the
// staged list stays in place (it approves both versions) and the error is
// returned.
func (s *Store) Swap(stage func(*List) error, swap func() error, commit func(*List) error) ([]string, error) {
	ctx, unlock, err := s.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	l, warnings, bad, err := s.read(false)
	if err != nil {
		return warnings, err
	}
	if bad != nil {
		return warnings, fmt.Errorf("the allowlist %s is %s: approve something with 'hermes hooks accept' first (it keeps the file aside), then edit", s.Path, bad.reason)
	}
	before := l.encode()
	if err := stage(l); err != nil {
		return warnings, err
	}
	if err := ctx.Err(); err != nil {
		return warnings, err
	}
	if err := s.writeStep(l.encode()); err != nil {
		return warnings, err
	}
	if err := swap(); err != nil {
		if werr := s.writeStep(before); werr != nil {
			return warnings, fmt.Errorf("%w; and restoring the allowlist failed: %v (it approves the edited version too; run 'hermes hooks prune' or 'hermes hooks accept')", err, werr)
		}
		return warnings, fmt.Errorf("%w; %w", err, ErrSwapRolledBack)
	}
	if err := commit(l); err != nil {
		return warnings, err
	}
	return warnings, s.writeStep(l.encode())
}

// writeStep is write for a step of Swap: a folder sync that failed does
// not stop the swap (the file is in place).
func (s *Store) writeStep(data []byte) error {
	err := s.write(data)
	var unsynced *DirSyncError
	if errors.As(err, &unsynced) {
		return nil
	}
	return err
}
