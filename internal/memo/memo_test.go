package memo

import (
	"fmt"
	"sync"
	"testing"
)

// TestGetAsksOncePerKey: each key is asked for once, its answer kept
// (errors and zero values too), and concurrent callers all get an answer.
func TestGetAsksOncePerKey(t *testing.T) {
	var m Map[string, int]
	asked := map[string]int{}
	ask := func(k string, v int) func() int { return func() int { asked[k]++; return v } }
	for range 3 {
		if got := m.Get("a", ask("a", 1)); got != 1 {
			t.Fatalf("a = %d", got)
		}
		if got := m.Get("zero", ask("zero", 0)); got != 0 {
			t.Fatalf("zero = %d", got)
		}
	}
	if asked["a"] != 1 || asked["zero"] != 1 {
		t.Fatalf("asked %v, want each once", asked)
	}
	// An interface answer that is nil (no error) is remembered as nil.
	var errs Map[string, error]
	for range 2 {
		if err := errs.Get("ok", func() error { asked["ok"]++; return nil }); err != nil {
			t.Fatalf("ok = %v", err)
		}
	}
	if asked["ok"] != 1 || errs.Len() != 1 {
		t.Fatalf("nil asked %d times, %d kept", asked["ok"], errs.Len())
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := m.Get("c", func() int { return 7 }); got != 7 {
				t.Errorf("goroutine %d: %d", i, got)
			}
		}()
	}
	wg.Wait()
}

// TestAnswersArePublished: answers looked up again end up in the map read
// without the lock, once each, and the copies made to publish them stay
// linear in the lookups (a publish per answer would be quadratic).
func TestAnswersArePublished(t *testing.T) {
	var m Map[int, int]
	asked := 0
	const n = 10000
	for round := range 3 {
		for k := range n {
			if got := m.Get(k, func() int { asked++; return k * 2 }); got != k*2 {
				t.Fatalf("round %d: %d = %d", round, k, got)
			}
		}
	}
	if asked != n {
		t.Fatalf("asked %d times for %d keys", asked, n)
	}
	if m.Len() != n {
		t.Fatalf("Len = %d, want %d", m.Len(), n)
	}
	read := m.read.Load()
	if read == nil || len(*read) != n || len(m.dirty) != 0 {
		t.Fatalf("published %v, unpublished %d: every answer looked up again should be published", read != nil, len(m.dirty))
	}
	// A lookup of a published answer takes no lock.
	m.mu.Lock()
	done := make(chan int)
	go func() { done <- m.Get(5, func() int { return -1 }) }()
	if got := <-done; got != 10 {
		t.Fatalf("published 5 = %d", got)
	}
	m.mu.Unlock()
}

// TestPublishCostIsLinear: n new answers, each looked up once after it is
// asked, copy O(n) entries in all.
func TestPublishCostIsLinear(t *testing.T) {
	var m Map[int, int]
	const n = 1 << 14
	copied := 0
	for k := range n {
		before := m.read.Load()
		m.Get(k, func() int { return k })
		m.Get(k, func() int { return k })
		if after := m.read.Load(); after != before {
			copied += len(*after)
		}
	}
	if copied > 4*n {
		t.Fatalf("copied %d entries to publish %d answers", copied, n)
	}
}

// TestConcurrentKeys: many goroutines asking for overlapping keys all get
// the key's answer, and each key is kept once.
func TestConcurrentKeys(t *testing.T) {
	var m Map[int, int]
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				k := (i*7 + g) % 500
				if got := m.Get(k, func() int { return k + 1 }); got != k+1 {
					t.Errorf("goroutine %d: %d = %d", g, k, got)
					return
				}
			}
		})
	}
	wg.Wait()
	if m.Len() != 500 {
		t.Fatalf("Len = %d, want 500", m.Len())
	}
}

// BenchmarkHotKey: the goroutines inspecting a long config ask for the
// same answer at once (one script behind 755,000 hooks).
func BenchmarkHotKey(b *testing.B) {
	var m Map[string, int]
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m.Get("/home/u/.hermes/agent-hooks/hook-a.sh", func() int { return 1 })
		}
	})
}

// BenchmarkDistinctKeys: 100,000 answers, each asked for once and looked
// up twice more (protect --all over as many scripts).
func BenchmarkDistinctKeys(b *testing.B) {
	keys := make([]string, 100000)
	for i := range keys {
		keys[i] = fmt.Sprintf("/home/u/.hermes/agent-hooks/hook-%06d.sh", i)
	}
	for b.Loop() {
		var m Map[string, int]
		for range 3 {
			for i, k := range keys {
				m.Get(k, func() int { return i })
			}
		}
	}
}
