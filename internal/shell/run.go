package shell

import (
	"context"
	"time"
)

// MaxCapture is how much of each output stream a run keeps; the rest is
// drained and the result marked truncated.
const MaxCapture = 1 << 20

// Request is one command to run.
type Request struct {
	Argv    []string
	Stdin   []byte
	Env     []string // full environment of the child (os.Environ() plus extras)
	Dir     string   // working directory; "" = ours
	Timeout time.Duration
	// MaxOutput caps each of stdout and stderr; 0 means MaxCapture.
	MaxOutput int
	// MaxAnswer, when positive, is how much of stdout is kept for judging
	// (Result.Answer) once it passes MaxOutput: the engine asks for
	// MaxAnswer bytes; runs whose answer is not judged (gateway handlers)
	// ask for none.
	MaxAnswer int
}

// Result is what one run produced.
type Result struct {
	ExitCode        *int // nil unless the process exited; -N when signal N ended it (Python's returncode)
	Stdout          string
	Stderr          string
	StdoutTruncated bool
	StderrTruncated bool
	// Answer is the whole stdout (up to MaxAnswer bytes) when it passed
	// MaxOutput, for judging only; nil when Stdout is all of it. Release
	// frees it.
	Answer   *Spool
	TimedOut bool
	Err      string // start failure or wait error, "" when none
	Elapsed  time.Duration
}

// Runner runs one command; the engine depends on this interface so unit
// tests can use a fake.
type Runner interface {
	Run(ctx context.Context, req Request) Result
}
