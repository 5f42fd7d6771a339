// Package audit owns the audit log: one JSON line per hook run, appended by
// run-event and the guard, read by log and stats.
package audit

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/hermes-hooks/hermes/internal/shell"
)

// Path is where run-event and the guard record every hook they fired.
func Path(home string) string { return filepath.Join(home, "logs", "hooks.jsonl") }

// Record is one line of the audit log. Environment variables are
// never recorded (they may carry secrets).
type Record struct {
	// ID names the firing (SPEC §26): every line of one firing carries the
	// same one, and a recorded payload is stored under it
	// (record.NewID makes them).
	ID      string
	Time    time.Time
	Event   string
	Kind    string // "shell" or "gateway"
	Command string // shell
	Name    string // gateway
	SHA256  string
	// SHA256After is the script's hash once the hook ended; recorded (with
	// sha256_before) only when it differs from SHA256.
	SHA256After string
	// Interrupted: the hook was killed by Ctrl-C or SIGTERM.
	Interrupted bool
	Result      shell.Result
	// Answer is the hook's parsed answer as it is written in the line
	// (nil: null).
	Answer any
	// Gateway: the error and elapsed time of the handler.
	Error   string
	Elapsed float64

	// Via is who fired the hook: ViaRunEvent or ViaExec (the guard).
	Via string
	// The guard's own fields (SPEC §17): its pid, the signal the hook died
	// of (0: none), whether it ran (StatusRan), was refused
	// (StatusRefused, with Refusal the reason) or was not run because its
	// dialect says the other tool would not run it here (StatusSkipped,
	// with Refusal the reason: "outside project", an --if rule that does
	// not match), and AnswerKind, the answer
	// judged as §7 judges stdout (block, modify, approve, context, none).
	PID        int
	Signal     int
	Status     string
	Refusal    string
	AnswerKind string

	// Wrapped is a protected hook's command as the agent runs it (the
	// guard's invocation), Command then being the command it guards
	// (SPEC §24 item 4): log and stats name the hook one way whoever
	// fired it.
	Wrapped string
	// FailClosed: the hook blocks when it fails. Its failures outlive
	// ordinary runs (kept.go), as refusals and blocks do.
	FailClosed bool
}

// Who fired a hook, and what became of a guarded run.
const (
	ViaRunEvent   = "run-event"
	ViaExec       = "exec"
	StatusRan     = "ran"
	StatusRefused = "refused"
	StatusSkipped = "skipped"
)

type auditJSON struct {
	Time         string  `json:"time"`
	Event        string  `json:"event"`
	Kind         string  `json:"kind"`
	Command      *string `json:"command,omitempty"`
	Name         *string `json:"name,omitempty"`
	SHA256       *string `json:"sha256"`
	SHA256Before *string `json:"sha256_before,omitempty"`
	SHA256After  *string `json:"sha256_after,omitempty"`
	// ChangedDuringRun: the hook's code changed while it ran (SPEC §23).
	ChangedDuringRun bool    `json:"changed_during_run,omitempty"`
	Status           string  `json:"status,omitempty"`
	ExitCode         *int    `json:"exit_code"`
	TimedOut         bool    `json:"timed_out"`
	Error            *string `json:"error"`
	ElapsedSeconds   float64 `json:"elapsed_seconds"`
	Parsed           any     `json:"parsed"`
	Via              string  `json:"via,omitempty"`
	PID              int     `json:"pid,omitempty"`
	Signal           *int    `json:"signal,omitempty"`
	Refusal          any     `json:"refusal,omitempty"`
	Answer           string  `json:"answer,omitempty"`
	Wrapped          string  `json:"wrapped,omitempty"`
	Truncated        bool    `json:"truncated,omitempty"`
	ID               string  `json:"id,omitempty"`
}

// Append appends one record as a JSON line to the audit log (file 0600,
// folder created 0700): locked, in one write, rotated at RotateSize, and a
// write cut short is taken back (see writeTo). It waits for another
// writer's lock at most LockTimeout.
func Append(home string, r Record) error {
	e, err := Encode(r)
	if err != nil {
		return err
	}
	return writeLocked(Path(home), e, lockTimeout)
}

// Entry is a record encoded: its line, its firing's id, and whether it
// must outlive ordinary runs (KeptPath).
type Entry struct {
	Line []byte
	ID   string
	Kept bool
	// checkID: write nothing when the log already holds a line with ID
	// (a deferred writer or a witness, which may come second).
	checkID bool
}

// Encode is r as the line Append would write.
func Encode(r Record) (Entry, error) {
	line, err := encode(r)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Line: line, ID: r.ID, Kept: mustKeep(r)}, nil
}

// TryAppend writes e only if nobody holds the log's lock: ErrBusy when
// someone does, and nothing written. The guard must not keep the agent
// waiting on a lock (SPEC §29 item 4): it hands a busy line to a process
// of its own that calls AppendWait.
func TryAppend(home string, e Entry) error { return writeLocked(Path(home), e, 0) }

// AppendWait writes e once the log's lock is free, unless a line with
// e's id is there already (the same run's line, written by its guard or
// its witness). After wait it gives up the lock and appends e unlocked, in
// one write: the line is better slightly out of order than lost.
func AppendWait(home string, e Entry, wait time.Duration) error {
	e.checkID = true
	err := writeLocked(Path(home), e, wait)
	if err == nil || !errors.Is(err, errLockTimeout) {
		return err
	}
	return appendUnlocked(Path(home), e)
}
