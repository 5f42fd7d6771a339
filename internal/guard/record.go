package guard

import (
	"fmt"
	"io"
	"os"

	"github.com/hermes-hooks/hermes/internal/record"
	"golang.org/x/sys/unix"
)

// recording is the guard's side of SPEC §26: with recording on, the
// payload the agent sent is stored, redacted, under the run's id.
type recording struct {
	store   record.Store
	payload []byte
	read    bool
	saved   chan struct{} // closed once the payload is stored; nil before
}

// startRecording decides whether this run records: only runs of the
// agent's (hermes's own firings never record: run-event stores its
// firing itself, and test, --cases and doctor never do), only when the
// config or HERMES_HOOKS_RECORD says so, and never when stdin is a
// terminal (a guard started by hand would wait for a payload).
func (g *run) startRecording() {
	if !g.audit {
		return
	}
	s := record.Load(g.hermesHome, os.Getenv)
	if !s.On {
		return
	}
	if _, err := unix.IoctlGetTermios(0, unix.TCGETS); err == nil {
		return
	}
	g.rec = &recording{store: record.Open(g.hermesHome, s.Max)}
}

// payload reads the agent's payload from stdin, once: the agent writes it
// and closes its end, so this ends as soon as it is written.
func (r *recording) readPayload() []byte {
	if !r.read {
		r.payload, _ = io.ReadAll(os.Stdin)
		r.read = true
	}
	return r.payload
}

// save stores the payload on a goroutine, while the hook runs; wait waits
// for it. A failure is a warning on stderr, never a changed result.
func (g *run) save(payload []byte) {
	if g.rec == nil || g.rec.saved != nil {
		return
	}
	done := make(chan struct{})
	g.rec.saved = done
	go func() {
		defer close(done)
		if err := g.rec.store.Save(g.id, payload, record.EnvSecrets(os.Environ())); err != nil {
			fmt.Fprintln(os.Stderr, oneLine("hermes-guard: warning: the payload was not recorded: "+err.Error()))
		}
	}()
}

// saveUnread stores the payload of a run that never read it (a refusal, a
// hook that could not start).
func (g *run) saveUnread() {
	if g.rec != nil && g.rec.saved == nil {
		g.save(g.rec.readPayload())
	}
}

// waitSaved waits until the payload, if one is being stored, is stored.
func (g *run) waitSaved() {
	if g.rec != nil && g.rec.saved != nil {
		<-g.rec.saved
	}
}
