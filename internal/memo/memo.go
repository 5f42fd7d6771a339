// Package memo remembers answers per key for one invocation of hermes:
// the caches of display and planning that ask the file system once per
// path however many hooks name it (SPEC §29 item 2). A decision to run a
// hook never reads one.
package memo

import (
	"maps"
	"sync"
	"sync/atomic"
)

// Map remembers one answer per key. It is safe for concurrent use and the
// zero Map is ready. The lock is not held while an answer is found, so two
// callers asking for one key at once may both find it; either answer is
// the file system's.
//
// Lookups of answers already published read a map that is never written
// again, with no lock: the goroutines inspecting a long config ask for the
// same few answers at once, and even a read lock's shared counter made
// them wait on each other (0.35 s of `list` at 755,000 hooks). New answers
// go to a locked map, published with the others once it has been looked in
// as many times as there are answers, so the copying stays linear in the
// lookups.
type Map[K comparable, V any] struct {
	read atomic.Pointer[map[K]V] // published answers; never written

	mu     sync.Mutex
	dirty  map[K]V // answers not yet published, none of them in read
	misses int     // lookups that found read without the answer since the last publish
}

// Get is the answer remembered for k, or else ask's, remembered.
func (m *Map[K, V]) Get(k K, ask func() V) V {
	if v, ok := m.published(k); ok {
		return v
	}
	m.mu.Lock()
	v, ok := m.dirty[k]
	if ok {
		m.missed()
	}
	m.mu.Unlock()
	if ok {
		return v
	}
	v = ask()
	m.mu.Lock()
	defer m.mu.Unlock()
	if kept, ok := m.published(k); ok {
		return kept // published while ask ran: keep one answer per key
	}
	if m.dirty == nil {
		m.dirty = map[K]V{}
	}
	m.dirty[k] = v
	m.missed()
	return v
}

func (m *Map[K, V]) published(k K) (V, bool) {
	if r := m.read.Load(); r != nil {
		v, ok := (*r)[k]
		return v, ok
	}
	var zero V
	return zero, false
}

// missed counts a lookup that read could not answer and publishes the
// unpublished answers once there have been as many such lookups as answers
// in all. Called with mu held.
func (m *Map[K, V]) missed() {
	m.misses++
	var read map[K]V
	if r := m.read.Load(); r != nil {
		read = *r
	}
	if m.misses < len(read)+len(m.dirty) {
		return
	}
	next := make(map[K]V, len(read)+len(m.dirty))
	maps.Copy(next, read)
	maps.Copy(next, m.dirty)
	m.read.Store(&next)
	m.dirty, m.misses = nil, 0
}

// Len is how many answers are remembered.
func (m *Map[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.dirty)
	if r := m.read.Load(); r != nil {
		n += len(*r)
	}
	return n
}
