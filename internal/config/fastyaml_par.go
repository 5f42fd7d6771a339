package config

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"
)

// parallelDecodeMin is how long a body must be for the fast reader to
// read its stubs' items on every CPU (a variable for tests).
var parallelDecodeMin = 1 << 20

// itemReaders read the items of outermost lists on every CPU while the
// fast reader goes on through the text, when it leaves stubs (SPEC §29
// item 2: reading the 755,000 hooks of a 55 MB config one after another
// kept a CPU idle for a second). The reader only finds where each item
// ends (the next content line indented no more than its "-") and leaves
// a place in the tree; a worker reads the item from its text, exactly as
// the reader would have there (an item is read from its text alone, as
// Deref does), and fills the place: a stub, the item whole when it is
// refused, or the scalar it is.
type itemReaders struct {
	jobs   chan []itemJob
	batch  []itemJob
	wg     sync.WaitGroup
	values atomic.Int64
	failed atomic.Bool
}

// An itemJob is an item to read: its text, from the start of its "-"'s
// line, that line's number, and its place in the tree.
type itemJob struct {
	text  string
	line  int
	place *yaml.Node
}

const itemBatch = 256

func newItemReaders(refused func(*yaml.Node) bool) *itemReaders {
	workers := runtime.GOMAXPROCS(0)
	r := &itemReaders{jobs: make(chan []itemJob, 2*workers), batch: make([]itemJob, 0, itemBatch)}
	for range workers {
		r.wg.Go(func() {
			var a nodeArena
			values := 0
			for batch := range r.jobs {
				for _, j := range batch {
					if r.failed.Load() {
						break // the fast reader gives the body up
					}
					n, ok := fill(&a, j, refused)
					if !ok {
						r.failed.Store(true)
						break
					}
					values += n
				}
			}
			r.values.Add(int64(values))
		})
	}
	return r
}

// fill reads j's item into a and fills its place; values is its values.
func fill(a *nodeArena, j itemJob, refused func(*yaml.Node) bool) (values int, ok bool) {
	a.reset()
	a.all = true
	item, values, ok := readItem(j.text, j.line, a)
	if ok {
		leave(j.place, item, j.text, refused)
	}
	return values, ok
}

// add hands an item on to be read.
func (r *itemReaders) add(j itemJob) {
	r.batch = append(r.batch, j)
	if len(r.batch) == itemBatch {
		r.jobs <- r.batch
		r.batch = make([]itemJob, 0, itemBatch)
	}
}

// wait waits for every item to be read; ok is false when one did not
// read (the fast reader then gives the body up).
func (r *itemReaders) wait() (values int, ok bool) {
	if len(r.batch) > 0 {
		r.jobs <- r.batch
	}
	close(r.jobs)
	r.wg.Wait()
	return int(r.values.Load()), !r.failed.Load()
}
