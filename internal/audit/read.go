package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Line is one readable line of the audit log: the fields log and stats
// use, and the line as stored (Raw, without its newline).
type Line struct {
	Raw      []byte
	Time     time.Time
	Event    string
	Kind     string
	Command  string // shell
	Name     string // gateway
	SHA256   string
	ExitCode *int
	TimedOut bool
	Error    string
	Elapsed  float64
	Via      string
	PID      int
	Signal   int
	Status   string
	Refusal  string
	// Answer is the guard's judgement of stdout; ParsedKind is the same
	// judgement read from a run-event line's parsed answer.
	Answer     string
	ParsedKind string
	// ID is the firing's id ("" in lines written before SPEC §26).
	ID string
	// Wrapped is a protected hook's command as the agent runs it.
	Wrapped string
}

// Hook is the line's hook as log and stats name it: the command of a
// shell hook, the name of a gateway hook.
func (l *Line) Hook() string {
	if l.Kind == "gateway" {
		return l.Name
	}
	return HookName(l.Command)
}

// HookName is how log and stats name a shell hook whose line carries
// command: lines written before SPEC §24 item 4 carry a protected hook's
// wrapped command, named by the command it guards, as lines are now.
func HookName(command string) string {
	if inner := wrapped(command); inner != "" {
		return inner
	}
	return command
}

// Outcomes of a line (log --status, stats).
const (
	OutcomeOK          = "ok"
	OutcomeBlock       = "block"
	OutcomeModify      = "modify"
	OutcomeApprove     = "approve"
	OutcomeContext     = "context"
	OutcomeFailed      = "failed"
	OutcomeTimeout     = "timeout"
	OutcomeRefused     = "refused"
	OutcomeSkipped     = "skipped"
	OutcomeInterrupted = "interrupted"
)

// Outcomes lists every outcome, in the order the help lists them.
var Outcomes = []string{OutcomeOK, OutcomeBlock, OutcomeModify, OutcomeApprove, OutcomeContext,
	OutcomeFailed, OutcomeTimeout, OutcomeRefused, OutcomeSkipped, OutcomeInterrupted}

// Outcome is what became of the run, one word: the guard's refusal or
// skip, an interrupt, a timeout, a spawn error, then the answer (a
// block outranks the non-zero exit that carried it), then a non-zero exit
// or a signal death (failed), else ok.
func (l *Line) Outcome() string {
	switch {
	case l.Status == StatusRefused:
		return OutcomeRefused
	case l.Status == OutcomeSkipped:
		return OutcomeSkipped
	case l.Status == OutcomeInterrupted:
		return OutcomeInterrupted
	case l.TimedOut:
		return OutcomeTimeout
	case l.Error != "":
		return OutcomeFailed
	}
	kind := l.Answer
	if kind == "" {
		kind = l.ParsedKind
	}
	switch kind {
	case OutcomeBlock, OutcomeModify, OutcomeApprove, OutcomeContext:
		return kind
	case "deny":
		// A gateway handler's slash-command decision (SPEC §21): a deny
		// stops the command, a rewrite runs another one in its place.
		return OutcomeBlock
	case "rewrite":
		return OutcomeModify
	}
	if l.Signal != 0 || l.ExitCode != nil && *l.ExitCode != 0 {
		return OutcomeFailed
	}
	return OutcomeOK
}

// Ran reports whether the hook's process ran (a refused or skipped line
// ran nothing).
func (l *Line) Ran() bool { return l.Status != StatusRefused && l.Status != OutcomeSkipped }

// lineJSON reads a line: the shape Append writes, with only what log and
// stats judge of the parsed answer.
type lineJSON struct {
	auditJSON
	Parsed  *answerJ `json:"parsed"`
	Refusal *string  `json:"refusal"`
}

type answerJ struct {
	Action  any `json:"action"`
	Context any `json:"context"`
}

// kind judges a parsed answer as the guard's answer field does.
func (a *answerJ) kind() string {
	if a == nil {
		return ""
	}
	switch a.Action {
	case "block":
		return OutcomeBlock
	case "modify":
		return OutcomeModify
	case "approve":
		return OutcomeApprove
	case "continue":
		return OutcomeContext
	}
	if _, ok := a.Context.(string); ok {
		return OutcomeContext
	}
	return ""
}

// ParseLine reads one line of the log. A line that is not a JSON object
// with a time, an event and a kind (torn by a full disk, or written by
// something else) is an error.
func ParseLine(raw []byte) (Line, error) {
	raw = bytes.TrimSuffix(raw, []byte{'\r'})
	var j lineJSON
	if err := json.Unmarshal(raw, &j); err != nil {
		// NaN and Infinity are valid in the agent's JSON (and in parsed
		// answers), not in encoding/json's.
		if j, err = parseLoose(raw); err != nil {
			return Line{}, err
		}
	}
	if j.Time == "" || j.Event == "" || j.Kind == "" {
		return Line{}, errNotAudit
	}
	t, err := time.Parse(time.RFC3339Nano, j.Time)
	if err != nil {
		return Line{}, errNotAudit
	}
	l := Line{Raw: raw, Time: t, Event: j.Event, Kind: j.Kind, Command: deref(j.Command),
		Name: deref(j.Name), SHA256: deref(j.SHA256), ExitCode: j.ExitCode, TimedOut: j.TimedOut,
		Error: deref(j.Error), Elapsed: j.ElapsedSeconds, Via: j.Via, PID: j.PID, Status: j.Status,
		Refusal: deref(j.Refusal), Answer: j.Answer, ParsedKind: j.Parsed.kind(), ID: j.ID, Wrapped: j.Wrapped}
	if j.Signal != nil {
		l.Signal = *j.Signal
	}
	return l, nil
}

var errNotAudit = errors.New("not an audit line")

// parseLoose reads a line encoding/json refuses, as Python's json would:
// NaN and Infinity are valid in the agent's JSON, and hooks answer them.
// Only the parsed answer may hold them; the rest is read as usual.
func parseLoose(raw []byte) (lineJSON, error) {
	obj, err := pyjson.DecodeObject(raw)
	if err != nil {
		return lineJSON{}, err
	}
	rest := pyjson.NewObject()
	for _, m := range obj.Members() {
		if m.Key != "parsed" {
			rest.Set(m.Key, m.Value)
		}
	}
	var j lineJSON
	if err := json.Unmarshal(pyjson.Marshal(rest, pyjson.Options{Compact: true}), &j); err != nil {
		return lineJSON{}, err
	}
	if p, ok := obj.Get("parsed"); ok {
		if p, ok := p.(*pyjson.Object); ok {
			j.Parsed = &answerJ{}
			j.Parsed.Action, _ = p.Get("action")
			j.Parsed.Context, _ = p.Get("context")
		}
	}
	return j, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Reader reads lines from one log file, counting those it cannot read.
type Reader struct {
	Path    string
	Skipped int
	r       *bufio.Reader
	partial []byte
	// consumed counts the bytes of the lines returned or skipped: where
	// the next line starts.
	consumed int64
}

// NewReader reads from r, which holds the log at path.
func NewReader(path string, r io.Reader) *Reader {
	return &Reader{Path: path, r: bufio.NewReaderSize(r, 64<<10)}
}

// Rewind starts reading again at the end of the last whole line, from f
// (the file the reader reads): after the file was truncated under it (a
// cut append taken back), the bytes held of the unfinished line are gone.
func (rd *Reader) Rewind(f io.Seeker, r io.Reader) error {
	if _, err := f.Seek(rd.consumed, io.SeekStart); err != nil {
		return err
	}
	rd.partial = nil
	rd.r.Reset(r)
	return nil
}

// Held is how far the reader has read: whole lines and the unfinished one.
func (rd *Reader) Held() int64 { return rd.consumed + int64(len(rd.partial)) }

// Next returns the next readable line, io.EOF at the end. A last line with
// no newline yet is held back (a writer may be finishing it; Next returns
// it once its newline arrives) until Flush.
func (rd *Reader) Next() (Line, error) {
	for {
		chunk, err := rd.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			rd.partial = append(rd.partial, chunk...)
			continue
		}
		if err != nil {
			rd.partial = append(rd.partial, chunk...)
			return Line{}, err
		}
		rd.consumed += int64(len(rd.partial) + len(chunk))
		raw := chunk[:len(chunk)-1]
		if len(rd.partial) > 0 {
			raw = append(rd.partial, raw...)
			rd.partial = nil
		} else {
			raw = bytes.Clone(raw)
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		l, perr := ParseLine(raw)
		if perr != nil {
			rd.Skipped++
			continue
		}
		return l, nil
	}
}

// Flush reads the held-back last line, if any, as a line: at the end of
// a file nobody writes to any more, it is all there will be.
func (rd *Reader) Flush() (Line, bool) {
	raw := rd.partial
	rd.partial = nil
	if len(bytes.TrimSpace(raw)) == 0 {
		return Line{}, false
	}
	l, err := ParseLine(raw)
	if err != nil {
		rd.Skipped++
		return Line{}, false
	}
	return l, true
}

// Skipped is how many unreadable lines a read met, per file.
type Skipped struct {
	Path  string
	Lines int
}

// ReadAll reads the kept lines the log no longer holds, the rotated log,
// then the log, and calls fn with each
// readable line, oldest first. A missing file is no error. It returns the
// files with unreadable lines.
func ReadAll(path string, fn func(Line) error) ([]Skipped, error) {
	files, err := openBoth(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	var skipped []Skipped
	// First the kept lines the log has lost (SPEC §24 item 5).
	kept, err := keptLines(path)
	if err != nil {
		return nil, err
	}
	bad := 0
	for _, raw := range lostKept(kept, files) {
		l, err := ParseLine(raw)
		if err != nil {
			bad++
			continue
		}
		if err := fn(l); err != nil {
			return skipped, err
		}
	}
	if bad > 0 {
		skipped = append(skipped, Skipped{Path: KeptPath(path), Lines: bad})
	}
	for _, f := range files {
		rd := NewReader(f.Name(), f)
		err := drain(rd, fn, true)
		if rd.Skipped > 0 {
			skipped = append(skipped, Skipped{Path: f.Name(), Lines: rd.Skipped})
		}
		if err != nil {
			return skipped, err
		}
	}
	return skipped, nil
}

// openBoth opens hooks.jsonl.1 and hooks.jsonl (those that exist). A
// rotation between the two opens would show one file twice or skip one, so
// the pair is opened again until the rotated file is still the one opened.
func openBoth(path string) ([]*os.File, error) {
	for try := 0; ; try++ {
		var files []*os.File
		old, err := regfile.Open(RotatedPath(path))
		if err == nil {
			files = append(files, old)
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		cur, err := regfile.Open(path)
		if err == nil {
			files = append(files, cur)
		} else if !errors.Is(err, os.ErrNotExist) {
			closeAll(files)
			return nil, err
		}
		if old == nil || try == 3 || sameFile(old, RotatedPath(path)) {
			return files, nil
		}
		closeAll(files)
	}
}

func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

func closeAll(files []*os.File) {
	for _, f := range files {
		f.Close()
	}
}
