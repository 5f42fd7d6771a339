package guard

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// SPEC §29 item 4: whatever holds hooks.jsonl.lock (a stopped log
// reader, a hung writer), the guard relays the hook's answer and exits at
// once. When the lock is busy it hands the line to a copy of itself in a
// session of its own, holding none of the agent's descriptors, which
// writes it once the lock is free (AppendWait: never a second line for the
// run's id) and gives up the lock after deferWait, appending unlocked.

// deferArg0 is the argv[0] of the deferred writer; no hook command of the
// agent can give the guard that argv alone.
const deferArg0 = "hermes-guard: audit writer"

// deferWait is how long the deferred writer waits for the lock.
const deferWait = 60 * time.Second

// deferredNote is the first line the deferred writer reads; the audit
// line follows.
type deferredNote struct {
	Home string `json:"home"`
	ID   string `json:"id"`
	Kept bool   `json:"kept"`
}

// deferLine starts the deferred writer and hands it e.
func (g *run) deferLine(e audit.Entry) error {
	note, _ := json.Marshal(deferredNote{Home: g.hermesHome, ID: e.ID, Kept: e.Kept})
	return spawnDetached(deferArg0, append(append(note, '\n'), e.Line...))
}

// spawnDetached starts a detached copy of the guard as argv0
// (startDetached) and writes input to its stdin.
func spawnDetached(argv0 string, input []byte) error {
	fd, err := startDetached(argv0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	for b := input; len(b) > 0; {
		n, err := syscall.Write(fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

// startDetached starts /proc/self/exe as argv0 in a new session, with the
// read end of a pipe on its stdin and /dev/null for its stdout and stderr:
// outside the process group the agent kills, and holding none of the
// agent's pipes (so the agent's reads of stdout and stderr end as
// before). It returns the pipe's write end, which the caller closes. The
// deferred writer and the witness are both started so.
func startDetached(argv0 string) (int, error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return -1, err
	}
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		syscall.Close(p[0])
		syscall.Close(p[1])
		return -1, err
	}
	_, err = syscall.ForkExec("/proc/self/exe", []string{argv0}, &syscall.ProcAttr{
		Env:   []string{},
		Files: []uintptr{uintptr(p[0]), uintptr(null), uintptr(null)},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	syscall.Close(p[0])
	syscall.Close(null)
	if err != nil {
		syscall.Close(p[1])
		return -1, err
	}
	return p[1], nil
}

// isDeferred reports whether args start the guard as its deferred writer.
func isDeferred(args []string) bool { return len(args) == 1 && args[0] == deferArg0 }

// deferredMain writes the line its guard handed it.
func deferredMain(stdin io.Reader) int {
	data, _ := io.ReadAll(stdin)
	head, line, ok := bytes.Cut(data, []byte{'\n'})
	var n deferredNote
	if !ok || json.Unmarshal(head, &n) != nil || n.Home == "" || len(line) == 0 {
		return 1
	}
	if audit.AppendWait(n.Home, audit.Entry{Line: line, ID: n.ID, Kept: n.Kept}, deferWait) != nil {
		return 1
	}
	return 0
}
