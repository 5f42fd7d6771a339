package hooks

import (
	"runtime"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hookspec"
)

// inOrderChunk is how many hooks a goroutine of inspectedInOrder decides
// at a time.
const inOrderChunk = 1024

// inspectedInOrder calls use, on the calling goroutine and in the order of
// specs, with each spec that want keeps as inspect decided it against
// list. The decisions are made a chunk at a time on every CPU: each finds,
// walks and hashes a hook's code, 130 µs a hook over distinct scripts, and
// protect --all decides every hook (SPEC §29 item 2). inspect must be safe
// to call from several goroutines (the Setup's caches are); the list's
// index is built before they start, so they only search it.
func inspectedInOrder(specs []hookspec.Spec, list *allowlist.List, want func(*hookspec.Spec) bool,
	inspect func(*ShellHook, *hookspec.Spec, *allowlist.List), use func(*ShellHook)) {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(specs) < 2*inOrderChunk {
		var h ShellHook
		for i := range specs {
			if want(&specs[i]) {
				inspect(&h, &specs[i], list)
				use(&h)
			}
		}
		return
	}
	if list != nil {
		list.Index()
	}
	// A window of one chunk per worker is decided at once, then used in
	// order; the buffers are used again for the next window.
	bufs := make([][]ShellHook, workers)
	kept := make([][]bool, workers)
	for w := range bufs {
		bufs[w] = make([]ShellHook, inOrderChunk)
		kept[w] = make([]bool, inOrderChunk)
	}
	for start := 0; start < len(specs); start += workers * inOrderChunk {
		var wg sync.WaitGroup
		for w := range workers {
			lo := start + w*inOrderChunk
			if lo >= len(specs) {
				break
			}
			hi := min(lo+inOrderChunk, len(specs))
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := lo; i < hi; i++ {
					kept[w][i-lo] = want(&specs[i])
					if kept[w][i-lo] {
						inspect(&bufs[w][i-lo], &specs[i], list)
					}
				}
			}()
		}
		wg.Wait()
		for w := range workers {
			lo := start + w*inOrderChunk
			for i := lo; i < min(lo+inOrderChunk, len(specs)); i++ {
				if kept[w][i-lo] {
					use(&bufs[w][i-lo])
				}
			}
		}
	}
}
