package cli

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
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

// streamListJSON writes out as writeJSON does, byte for byte, with s's
// shell hooks, then its disabled ones, in its empty "shell_hooks" list:
// inspected and encoded a chunk at a time on every CPU while the chunks
// already done are written in order. `list --json` of 755,000 hooks held
// every inspected hook, its JSON and two copies of the whole text: 15 s
// and 2.7 GB (SPEC §29 item 2).
func streamListJSON(w io.Writer, out listJSON, s *hooks.Setup, list *allowlist.List) error {
	doc, err := appendJSON(nil, new(bytes.Buffer), out, 0)
	if err != nil {
		return err
	}
	specs, disabled := s.Parsed.Specs, s.Parsed.Disabled
	n := len(specs) + len(disabled)
	// The empty list is where indentJSON put it: on a line of its own
	// (a line feed inside a string is written \n), once.
	empty := []byte("\n  \"shell_hooks\": []")
	at := bytes.Index(doc, empty)
	switch {
	case n == 0:
		_, err := w.Write(doc)
		return err
	case at < 0:
		return errors.New("list --json: the document has no empty shell_hooks list to stream the hooks into") // a bug: never hooks dropped
	}
	if list != nil {
		list.Index() // built here, once: the goroutines only search it
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(doc[:at+len(empty)-1]) // up to its "["
	type chunk struct {
		out []byte
		err error
	}
	var bufs sync.Pool // of *[]byte
	bufs.New = func() any { b := make([]byte, 0, 512*streamChunk); return &b }
	chunks := (n + streamChunk - 1) / streamChunk
	var failed error
	workers := runtime.GOMAXPROCS(0)
	inorder.Chunks(chunks, workers, 4*workers, func(k int) chunk {
		c := chunk{out: (*bufs.Get().(*[]byte))[:0]}
		var h hooks.ShellHook
		var scratch bytes.Buffer
		for i := k * streamChunk; i < min(n, (k+1)*streamChunk); i++ {
			var spec *hookspec.Spec
			if i < len(specs) {
				spec = &specs[i]
			} else {
				spec = &disabled[i-len(specs)]
			}
			h = hooks.ShellHook{}
			s.InspectTo(&h, spec, list)
			j := shellHookToJSON(h)
			j.SHA256 = s.ScriptSHA256(&h)
			if i > 0 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, "\n    "...)
			if c.out, c.err = appendJSON(c.out, &scratch, j, 2); c.err != nil {
				break
			}
		}
		return c
	}, func(c chunk) {
		if failed == nil {
			failed = c.err
			bw.Write(c.out)
		}
		c.out = c.out[:0]
		bufs.Put(&c.out)
	})
	if failed != nil {
		return failed
	}
	bw.WriteString("\n  ]")
	bw.Write(doc[at+len(empty):])
	return bw.Flush()
}
