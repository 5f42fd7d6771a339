package memo

import (
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
