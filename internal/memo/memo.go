// Package memo remembers answers per key for one invocation of hermes:
// the caches of display and planning that ask the file system once per
// path however many hooks name it (SPEC §29 item 2). A decision to run a
// hook never reads one.
package memo

import "sync"

// Map remembers one answer per key. It is safe for concurrent use and the
// zero Map is ready. The lock is not held while an answer is found, so two
// callers asking for one key at once may both find it; either answer is
// the file system's.
type Map[K comparable, V any] struct {
	// Read-locked for lookups: the goroutines inspecting a long config
	// ask for the same few answers at once (a plain mutex made them queue,
	// 1 s of `list` at 755,000 hooks).
	mu sync.RWMutex
	m  map[K]V
}

// Get is the answer remembered for k, or else ask's, remembered.
func (m *Map[K, V]) Get(k K, ask func() V) V {
	m.mu.RLock()
	v, ok := m.m[k]
	m.mu.RUnlock()
	if ok {
		return v
	}
	v = ask()
	m.mu.Lock()
	if m.m == nil {
		m.m = map[K]V{}
	}
	m.m[k] = v
	m.mu.Unlock()
	return v
}

// Len is how many answers are remembered.
func (m *Map[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}
