package hooks

import (
	"runtime"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/inorder"
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
	// A chunk's hooks are decided into buffers used again once the chunk
	// is used (a ShellHook is large).
	type decided struct {
		hooks []ShellHook
		kept  []bool
	}
	var bufs sync.Pool
	bufs.New = func() any { return &decided{make([]ShellHook, inOrderChunk), make([]bool, inOrderChunk)} }
	chunks := (len(specs) + inOrderChunk - 1) / inOrderChunk
	inorder.Chunks(chunks, workers, 2*workers, func(k int) *decided {
		d := bufs.Get().(*decided)
		lo, hi := k*inOrderChunk, min((k+1)*inOrderChunk, len(specs))
		d.hooks, d.kept = d.hooks[:hi-lo], d.kept[:hi-lo]
		for i := lo; i < hi; i++ {
			if d.kept[i-lo] = want(&specs[i]); d.kept[i-lo] {
				inspect(&d.hooks[i-lo], &specs[i], list)
			}
		}
		return d
	}, func(d *decided) {
		for j := range d.hooks {
			if d.kept[j] {
				use(&d.hooks[j])
			}
		}
		bufs.Put(d)
	})
}
