package shell

import (
	"fmt"
	"io"
	"os"
)

// MaxAnswer is how much of a hook's stdout is read for judging its answer
// (SPEC §29 item 10). The agent reads all of it; past MaxCapture (what is
// shown and stored) the bytes go to a Spool on disk, so a big answer is
// judged as the agent judges it without being held in memory while the hook
// runs. Past MaxAnswer the answer is cut: judged unparseable.
const MaxAnswer = 64 << 20

// Spool is the whole stdout of a run that printed more than its display
// cap, up to its limit, in an unlinked temporary file: nothing is left on
// disk once it is closed (Result.Release), or once the process ends.
type Spool struct {
	f     *os.File
	n     int64
	limit int64
	// Cut: stdout went on past the limit; only the first limit bytes are
	// here.
	Cut bool
	// Err: the spool could not be written (no temporary directory, a full
	// disk); what it holds is not the whole answer.
	Err error
}

// NewSpool starts a spool of at most limit bytes holding first, the bytes
// a capture kept before it overflowed. It never fails: a spool that cannot
// be written says so in Err, and the judge treats its answer as cut. (The
// guard's relay can feed one the same way, for its audit answer.)
func NewSpool(limit int, first []byte) *Spool {
	s := &Spool{limit: int64(limit)}
	f, err := os.CreateTemp("", "hermes-answer-*")
	if err != nil {
		s.Err = err
		return s
	}
	// Unlinked at once: the open descriptor is all that keeps it.
	_ = os.Remove(f.Name())
	s.f = f
	_, _ = s.Write(first)
	return s
}

// Write appends p, up to the limit; whatever passes it marks the spool cut.
// It always reports all of p written, so the stream it tees is never
// stopped by it.
func (s *Spool) Write(p []byte) (int, error) {
	all := len(p)
	if s.Err != nil || s.Cut || s.f == nil {
		return all, nil
	}
	if room := s.limit - s.n; int64(len(p)) > room {
		p, s.Cut = p[:room], true
	}
	if _, err := s.f.Write(p); err != nil {
		s.Err = err
		return all, nil
	}
	s.n += int64(len(p))
	return all, nil
}

// Limit is the most the spool keeps, in bytes.
func (s *Spool) Limit() int64 { return s.limit }

// Bytes reads the spooled stdout back, for the one parse that judges it.
func (s *Spool) Bytes() ([]byte, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	if s.f == nil {
		return nil, fmt.Errorf("spool closed")
	}
	b := make([]byte, s.n)
	if _, err := s.f.ReadAt(b, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

// Close frees the spool's file.
func (s *Spool) Close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// Release frees what r holds for judging (its Answer spool); call it once
// the answer has been judged.
func (r *Result) Release() {
	if r.Answer != nil {
		_ = r.Answer.Close()
		r.Answer = nil
	}
}
