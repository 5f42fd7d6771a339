package inorder

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"testing"
)

// TestChunksInOrder: results are used in order whatever order the work
// ends in, each once, and no more than ahead chunks are ever taken and not
// yet used.
func TestChunksInOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 200} {
		const ahead = 5
		var pending, most atomic.Int64
		var got []int
		Chunks(n, 3, ahead, func(k int) int {
			p := pending.Add(1)
			for {
				m := most.Load()
				if p <= m || most.CompareAndSwap(m, p) {
					break
				}
			}
			for range rand.IntN(100000) { // end out of order
				runtime.Gosched()
			}
			return k
		}, func(k int) {
			pending.Add(-1)
			got = append(got, k)
		})
		if len(got) != n {
			t.Fatalf("n=%d: %d results used", n, len(got))
		}
		for i, k := range got {
			if k != i {
				t.Fatalf("n=%d: result %d used at %d", n, k, i)
			}
		}
		if m := most.Load(); m > ahead {
			t.Errorf("n=%d: %d chunks taken and not used at once, want at most %d", n, m, ahead)
		}
	}
}
