package cli

import (
	"bytes"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/inorder"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// streamChunk is how many hooks a goroutine of streamShellHooks inspects
// and renders at a time.
const streamChunk = 1024

// streamShellHooks writes what renderShellHooks writes for s's shell hooks,
// byte for byte, inspecting and rendering them a chunk at a time on every
// CPU while the chunks already done are written in order. No list of
// inspected hooks is kept: for 755,000 hooks that list was 490 MB, and
// rendering after inspecting left a core idle for seconds (SPEC §29
// item 2).
func streamShellHooks(w io.Writer, cs iostreams.Palette, s *hooks.Setup, list *allowlist.List) {
	specs := s.Parsed.Specs
	workers := runtime.GOMAXPROCS(0)
	if len(specs) < 2*streamChunk || workers < 2 {
		renderShellHooks(w, cs, s.InspectAll(specs, list))
		return
	}
	if list != nil {
		list.Index() // built here, once: the goroutines only search it
	}
	// The hooks' indexes in the order renderShellHooks shows them: by
	// event name, in config order within an event.
	byEvent := map[string][]int{}
	var events []string
	for i := range specs {
		ev := specs[i].Event
		if _, seen := byEvent[ev]; !seen {
			events = append(events, ev)
		}
		byEvent[ev] = append(byEvent[ev], i)
	}
	sort.Strings(events)
	type chunk struct {
		header string // the event's heading, on its first chunk
		hooks  []int
	}
	// Buffers are used again once written, sized for a chunk from the
	// start (growing each by doubling was 5% of list).
	var bufs sync.Pool
	bufs.New = func() any { return bytes.NewBuffer(make([]byte, 0, 256*streamChunk)) }
	var chunks []chunk
	for _, ev := range events {
		idx := byEvent[ev]
		for lo := 0; lo < len(idx); lo += streamChunk {
			c := chunk{hooks: idx[lo:min(lo+streamChunk, len(idx))]}
			if lo == 0 {
				c.header = "\n  " + cs.Cyan(esc(ev)) + "\n"
			}
			chunks = append(chunks, c)
		}
	}
	io.WriteString(w, "\n"+cs.Bold("Shell hooks")+"\n")
	// At most 4 chunks a worker wait to be written: the output held in
	// memory stays a few MB however long the config.
	inorder.Chunks(len(chunks), workers, 4*workers, func(k int) *bytes.Buffer {
		out := bufs.Get().(*bytes.Buffer)
		out.WriteString(chunks[k].header)
		var h hooks.ShellHook
		for _, i := range chunks[k].hooks {
			h = hooks.ShellHook{}
			s.InspectTo(&h, &specs[i], list)
			renderShellHook(out, cs, &h)
		}
		return out
	}, func(out *bytes.Buffer) {
		w.Write(out.Bytes())
		out.Reset()
		bufs.Put(out)
	})
}
