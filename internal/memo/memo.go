// Package memo remembers answers per key for one invocation of hermes:
// the caches of display and planning that ask the file system once per
// path however many hooks name it (SPEC §29 item 2). A decision to run a
// hook never reads one.
package memo

import "sync"

// Map remembers one answer per key. It is safe for concurrent use and the
// zero Map is ready. No lock is held while an answer is found, so two
// callers asking for one key at once may both find it; either answer is
// the file system's, and the first remembered is the one kept.
type Map[K comparable, V any] struct {
	// A sync.Map: its lookups write nothing shared, so the goroutines
	// inspecting a long config, asking for the same few answers at once,
	// do not bounce a lock's counter between cores (a read lock's cost
	// 1 s of CPU of `list` at 755,000 hooks; a plain mutex made them queue).
	m sync.Map
}

// Get is the answer remembered for k, or else ask's, remembered.
func (m *Map[K, V]) Get(k K, ask func() V) V {
	if v, ok := m.m.Load(k); ok {
		return as[V](v)
	}
	v, _ := m.m.LoadOrStore(k, ask())
	return as[V](v)
}

// as is v as a V: a nil interface answer (no error) was stored as nil.
func as[V any](v any) V {
	t, _ := v.(V)
	return t
}

// Len is how many answers are remembered.
func (m *Map[K, V]) Len() int {
	n := 0
	m.m.Range(func(any, any) bool { n++; return true })
	return n
}
