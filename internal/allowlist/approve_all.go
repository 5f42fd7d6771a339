package allowlist

import "slices"

// ApproveAll is Approve of each entry in turn, in time linear in the list
// and the entries (protect or unprotect of every hook): the entries they
// replace are removed in one pass, not one pass each.
func (l *List) ApproveAll(es []Entry) {
	idx := l.Index()
	replaced := map[Key]Entry{}
	for _, e := range es {
		if i, ok := idx[e.Key()]; ok {
			if _, seen := replaced[e.Key()]; !seen {
				replaced[e.Key()] = l.Approvals[i]
			}
		}
	}
	if len(replaced) > 0 {
		l.filter(func(x Entry) bool { _, gone := replaced[x.Key()]; return !gone })
	}
	l.Approvals = slices.Grow(l.Approvals, len(es)) // once, not by doubling
	for _, e := range es {
		if old, ok := replaced[e.Key()]; ok && e.src == nil && e.extra == nil {
			if extra := old.unknownKeys(); extra.Len() > 0 {
				e.extra = extra
			}
		}
		l.Approve(e)
	}
}

// RevokeKeys removes the entries of every pair in keys, in one pass, and
// returns how many were removed.
func (l *List) RevokeKeys(keys map[Key]bool) int {
	if len(keys) == 0 {
		return 0
	}
	return l.filter(func(x Entry) bool { return !keys[x.Key()] })
}
