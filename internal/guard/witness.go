package guard

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// The agent ends a hook that outlives its timeout by killing the hook's
// process group with SIGKILL, and the guard is in that group (it must be:
// the kill has to take the whole tree). Nothing in the group can then write
// the run's audit line. So a guard whose hook is still running after
// witnessDelay starts a witness: a copy of itself in a session of its own,
// holding only the read end of a pipe. A guard that ends as usual writes
// its own line and then tells the witness so; when the pipe closes without
// that word, the guard was killed, and the witness writes the line (SPEC
// §17 item 5: every run of the agent's hooks is in the audit log). A hook
// that ends sooner, nearly all of them, costs nothing more.
const witnessDelay = 200 * time.Millisecond

// witnessArg0 is the argv[0] the guard starts its witness with; no hook
// command of the agent can give the guard that argv alone.
const witnessArg0 = "hermes-guard: witness"

// witnessDone is what a guard that wrote its own line sends its witness.
const witnessDone = 'd'

// witnessNote is what the witness knows of the run.
type witnessNote struct {
	ID      string    `json:"id"`
	Home    string    `json:"home"`
	Event   string    `json:"event"`
	Command string    `json:"command"`
	SHA256  string    `json:"sha256"`
	Start   time.Time `json:"start"`
	PID     int       `json:"pid"`
	Wrapped string    `json:"wrapped,omitempty"`
	// FailClosed and Kept: the line must outlive ordinary runs.
	FailClosed bool `json:"fail_closed,omitempty"`
}

// witness is a guard's side of its witness.
type witness struct {
	mu    sync.Mutex
	timer *time.Timer
	fd    int // the pipe's write end, -1 while no witness runs
	done  bool
}

// watch starts the witness after witnessDelay unless done comes first.
func (g *run) watch() *witness {
	w := &witness{fd: -1}
	if !g.audit {
		return w // hermes fired it and writes the line itself
	}
	command, wrapped := g.auditCommand()
	note := witnessNote{ID: g.id, Home: g.hermesHome, Event: g.inv.Event, Command: command, Wrapped: wrapped,
		SHA256: g.sha, Start: g.start, PID: os.Getpid(), FailClosed: g.inv.FailClosed}
	w.timer = time.AfterFunc(witnessDelay, func() { w.start(note) })
	return w
}

func (w *witness) start(note witnessNote) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	fd, err := startDetached(witnessArg0)
	if err != nil {
		return
	}
	line, _ := json.Marshal(note)
	if _, err := syscall.Write(fd, append(line, '\n')); err != nil {
		syscall.Close(fd)
		return
	}
	w.fd = fd
}

// finish tells the witness, if one runs, that the guard wrote its own line.
func (w *witness) finish() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.fd >= 0 {
		_, _ = syscall.Write(w.fd, []byte{witnessDone})
		syscall.Close(w.fd)
		w.fd = -1
	}
}

// isWitness reports whether args start the guard as a witness.
func isWitness(args []string) bool { return len(args) == 1 && args[0] == witnessArg0 }

// witnessMain waits for its guard to end: a guard that sent witnessDone
// wrote its line; one that did not was killed with its hook, and the line
// is written here, as a run ended by the agent's timeout.
func witnessMain(stdin io.Reader) int {
	data, _ := io.ReadAll(stdin)
	note, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || bytes.IndexByte(rest, witnessDone) >= 0 {
		return 0
	}
	var n witnessNote
	if json.Unmarshal(note, &n) != nil || n.Home == "" {
		return 1
	}
	r := audit.Record{ID: n.ID, Time: n.Start, Event: n.Event, Kind: "shell", Command: n.Command, Wrapped: n.Wrapped,
		SHA256: n.SHA256, Via: audit.ViaExec, PID: n.PID, Status: audit.StatusRan, FailClosed: n.FailClosed,
		Result: shell.Result{TimedOut: true, Elapsed: time.Since(n.Start),
			Err: "killed by SIGKILL with its hook's process group (the agent's timeout); written by the guard's witness"}}
	e, err := audit.Encode(r)
	if err != nil {
		return 1
	}
	// The guard may have written its own line (or handed it on) and been
	// killed before it could say so: a run has one line (SPEC §29 item 5).
	if audit.AppendWait(n.Home, e, deferWait) != nil {
		return 1
	}
	return 0
}
