// Package inorder does the work of a long sequence a chunk at a time on
// every CPU and hands each chunk's result on in the sequence's order: list
// renders, and protect decides, 100,000 hooks so (SPEC §29 item 2).
package inorder

import (
	"sync"
	"sync/atomic"
)

// Chunks calls work(k) for every k in [0, n) on up to workers goroutines,
// and use(r) with each result on the calling goroutine, in the order of k,
// as soon as it and those before it are done. At most ahead chunks are
// taken and not yet used, so what waits in memory stays bounded however
// long the sequence.
func Chunks[T any](n, workers, ahead int, work func(k int) T, use func(r T)) {
	type slot struct {
		r    T
		done chan struct{}
	}
	slots := make([]slot, n)
	for k := range slots {
		slots[k].done = make(chan struct{})
	}
	taken := make(chan struct{}, max(ahead, workers))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				taken <- struct{}{}
				k := int(next.Add(1)) - 1
				if k >= n {
					<-taken
					return
				}
				slots[k].r = work(k)
				close(slots[k].done)
			}
		})
	}
	for k := range slots {
		<-slots[k].done
		use(slots[k].r)
		var zero T
		slots[k].r = zero // let it go
		<-taken
	}
	wg.Wait()
}
