package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pystr"
	"golang.org/x/sys/unix"
)

// pipeGrace is how long we keep reading the pipes once the hook's group has
// been killed: a grandchild that left the group but still holds stdout must
// not keep us waiting longer than this.
const pipeGrace = time.Second

// Exec is the real Runner: it runs argv directly (never through a shell) as
// the leader of a new process group.
type Exec struct{}

var _ Runner = Exec{}

// Run runs req and reports what happened; every failure is described in the
// Result, never returned or panicked.
//
// A run lasts until the hook has exited and its stdout and stderr are closed
// (a background job still holding them is part of the hook, as with Python's
// communicate), or until the timeout or ctx ends it. Then the whole process
// group is killed with SIGKILL and Run returns at most pipeGrace later,
// whatever escaped descendants do with the pipes. The pipes are ours rather
// than exec's copying goroutines so that this bound holds for stdin too.
func (Exec) Run(ctx context.Context, req Request) Result {
	if len(req.Argv) == 0 {
		return Result{Err: errEmptyCommand.Error()}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if ctx.Err() != nil {
		return Result{Err: "interrupted"}
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if req.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, req.Timeout)
	}
	defer cancel()

	closeInheritedOnExec()
	start := time.Now()
	p, err := openPipes()
	if err != nil {
		return Result{Err: err.Error()}
	}
	defer p.closeOurs()

	var cmd *exec.Cmd
	for try := 0; ; try++ {
		cmd = exec.Command(req.Argv[0], req.Argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = p.inR, p.outW, p.errW
		cmd.Env, cmd.Dir = req.Env, req.Dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		err = cmd.Start()
		// A script written a moment ago (doctor --chaos's stand-ins) can
		// still be open for writing in a child another goroutine is
		// forking: exec then fails with ETXTBSY until that child execs.
		// That is this process's own race, not the hook's: start again.
		if !errors.Is(err, syscall.ETXTBSY) || try == 50 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// The child has its own copies now; ours must go so that we see EOF
	// when the child's side closes.
	p.closeChilds()
	if err != nil {
		return Result{Err: startError(err, req.Argv[0]), Elapsed: time.Since(start)}
	}
	pid := cmd.Process.Pid

	go func() {
		// EPIPE (the hook exited without reading) is not our problem.
		_, _ = p.inW.Write(req.Stdin)
		_ = p.inW.Close()
	}()

	max := req.MaxOutput
	if max <= 0 {
		max = MaxCapture
	}
	// stdout keeps its start (the answer comes first); stderr its end (the
	// error that made a hook fail is usually the last thing it printed).
	stdout, stderr := &capture{max: max, spool: req.MaxAnswer}, &capture{max: max, tail: true}
	pipesDone := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		wg.Go(func() { _, _ = io.Copy(stdout, p.outR) })
		wg.Go(func() { _, _ = io.Copy(stderr, p.errR) })
		wg.Wait()
		close(pipesDone)
	}()

	w := &watch{waited: make(chan waitResult, 1), pipesDone: pipesDone}
	go func() {
		err := cmd.Wait()
		w.waited <- waitResult{cmd.ProcessState, err}
	}()

	killedBy := w.untilDone(ctx, runCtx)
	if killedBy != "" {
		KillGroup(pid)
		if !w.closedWithin(pipeGrace) {
			// Closing our read ends unblocks the copiers; the captures are
			// only read once they have returned.
			p.closeReaders()
			<-pipesDone
		}
	}
	res := Result{Elapsed: time.Since(start)}
	switch killedBy {
	case "timeout":
		res.TimedOut = true
	case "pipes held":
		// The hook itself exited in time; what kept us waiting was a
		// background process holding its output open. The hook is judged
		// on its exit and on what it printed; the rest of its group is
		// killed.
	case "interrupted":
		res.Err = "interrupted"
	case "error":
		res.Err = w.wr.err.Error()
	}
	if st := w.wr.state; w.exited && st != nil {
		ws, _ := st.Sys().(syscall.WaitStatus)
		switch {
		case st.Exited():
			code := st.ExitCode()
			res.ExitCode = &code
		case ws.Signaled() && killedBy == "":
			// Python's returncode for a process ended by signal N is -N,
			// and the agent reads it like any other non-zero exit: what
			// the hook printed before dying still counts (SPEC §14). A
			// signal we sent ourselves (timeout, interrupt) is reported
			// as that instead, above.
			code := -int(ws.Signal())
			res.ExitCode = &code
		}
	}
	res.Stdout, res.StdoutTruncated = stdout.text()
	res.Answer = stdout.spooled
	res.Stderr, res.StderrTruncated = stderr.text()
	return res
}

// closeInheritedOnExec marks every descriptor above stderr close-on-exec,
// once. Go opens its own files close-on-exec, but descriptors hermes
// inherited from its parent (a pipe, a socket, a terminal of the agent) are
// not, and a hook would inherit them: it must get only stdin, stdout and
// stderr, as Python's subprocess gives (close_fds). After this call every
// descriptor that exists is close-on-exec, and every later one is opened so.
var closeInheritedOnExec = sync.OnceFunc(func() {
	if unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	// Kernels before 5.11: walk the open descriptors.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
})

// waitResult is what cmd.Wait reported.
type waitResult struct {
	state *os.ProcessState
	err   error
}

// watch follows the two events that end a run on its own: the leader being
// reaped and both output pipes reaching EOF.
type watch struct {
	waited    chan waitResult
	pipesDone chan struct{}
	wr        waitResult
	exited    bool
	closed    bool
}

// untilDone waits until the run ends on its own (""), or must be killed:
// "timeout", "pipes held" (the leader exited in time but something it left
// behind still holds stdout or stderr when the timeout ends the wait),
// "interrupted" (ctx cancelled) or "error" (waiting failed).
func (w *watch) untilDone(ctx, runCtx context.Context) string {
	for !(w.exited && w.closed) {
		select {
		case w.wr = <-w.waited:
			w.exited = true
			var exitErr *exec.ExitError
			if w.wr.err != nil && !errors.As(w.wr.err, &exitErr) {
				return "error"
			}
		case <-w.pipesDone:
			// A closed channel is always ready: nil it, or the loop spins.
			w.closed, w.pipesDone = true, nil
		case <-runCtx.Done():
			if ctx.Err() != nil {
				return "interrupted"
			}
			if w.exited {
				return "pipes held"
			}
			return "timeout"
		}
	}
	return ""
}

// closedWithin waits up to grace for the killed group to be reaped and the
// pipes to close, and reports whether the pipes closed.
func (w *watch) closedWithin(grace time.Duration) bool {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for !(w.exited && w.closed) {
		select {
		case w.wr = <-w.waited:
			w.exited = true
		case <-w.pipesDone:
			// A closed channel is always ready: nil it, or the loop spins.
			w.closed, w.pipesDone = true, nil
		case <-timer.C:
			return w.closed
		}
	}
	return true
}

// pipes are the three stdio pipes of one run: the child's ends are closed
// right after start, ours when Run returns.
type pipes struct {
	inR, inW, outR, outW, errR, errW *os.File
}

func openPipes() (*pipes, error) {
	var p pipes
	var err error
	if p.inR, p.inW, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("cannot create a pipe for the hook: %w", err)
	}
	if p.outR, p.outW, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, fmt.Errorf("cannot create a pipe for the hook: %w", err)
	}
	if p.errR, p.errW, err = os.Pipe(); err != nil {
		p.closeAll()
		return nil, fmt.Errorf("cannot create a pipe for the hook: %w", err)
	}
	return &p, nil
}

func (p *pipes) closeChilds()  { closeFiles(p.inR, p.outW, p.errW) }
func (p *pipes) closeReaders() { closeFiles(p.outR, p.errR) }
func (p *pipes) closeOurs()    { closeFiles(p.inW, p.outR, p.errR) }
func (p *pipes) closeAll()     { p.closeChilds(); p.closeOurs() }

// closeFiles closes each non-nil file; closing one twice is harmless
// (os.File reports ErrClosed, which nobody needs).
func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}

// startError maps a failure to start the process to the messages of SPEC §5.
// A script that exists but names a missing interpreter fails with ENOENT
// too; saying "command not found" would send the user looking for the wrong
// file, so its #! line is read and named.
func startError(err error, argv0 string) string {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		if interp := missingInterpreter(argv0); interp != "" {
			return "interpreter " + interp + " not found"
		}
		return "command not found"
	case errors.Is(err, fs.ErrPermission):
		return "command not executable"
	}
	// Prefer the bare OS message ("exec format error") over Go's wrapping
	// ("fork/exec /path: exec format error").
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// missingInterpreter returns the interpreter named on the #! line of the
// file argv0 when that file exists and the interpreter does not, "" else.
// The name is returned as the kernel reads it: up to a space, tab or
// newline, so a CRLF line gives "/bin/sh\r".
func missingInterpreter(argv0 string) string {
	return missingInterpreterIn(argv0, ExecProbes{})
}

// missingInterpreterIn is missingInterpreter asking p.
func missingInterpreterIn(argv0 string, p ExecProbes) string {
	if !strings.Contains(argv0, "/") {
		return ""
	}
	head := p.Head
	if head == nil {
		head = ReadHead
	}
	line := head(argv0)
	if !bytes.HasPrefix(line, []byte("#!")) {
		return ""
	}
	line = bytes.TrimLeft(line[2:], " \t")
	if i := bytes.IndexAny(line, " \t\n"); i >= 0 {
		line = line[:i]
	}
	interp := string(line)
	if interp == "" {
		return ""
	}
	exists := p.Exists
	if exists == nil {
		exists = statOK
	}
	if exists(interp) {
		return ""
	}
	return interp
}

// statOK reports whether a stat of path (links followed) succeeds now.
func statOK(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// HeadSize is how much of a file ReadHead reads: more than a #! line the
// kernel takes.
const HeadSize = 256

// ReadHead is the first HeadSize bytes of the regular file at path (fewer
// when it is shorter), nil when it is not a regular file or cannot be read.
// The file is opened without blocking: a FIFO does not hang it.
func ReadHead(path string) []byte {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	buf := make([]byte, HeadSize)
	n, _ := f.Read(buf)
	if n < HeadSize && int64(n) < fi.Size() {
		// Short of what the file held when asked: read on (a hook's
		// script, read whole at once, needs no second read to find its
		// end).
		m, _ := io.ReadFull(f, buf[n:])
		n += m
	}
	return buf[:n]
}

// KillGroup sends SIGKILL to the whole process group led by pid. Errors are
// ignored: the only likely one is that the group is already gone.
func KillGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// ElapsedSeconds is the run's duration in seconds rounded to 3 decimals, as
// reported in JSON.
func (r Result) ElapsedSeconds() float64 {
	return math.Round(r.Elapsed.Seconds()*1000) / 1000
}

// capture keeps the first (or, with tail, the last) max bytes written to it
// and counts the rest as written, so the hook never blocks on a full pipe
// while memory stays bounded whatever it prints (at most 2×max for a tail).
// One capture serves one stream: exec copies each stream in its own
// goroutine. A head capture with spool > 0 also keeps the whole stream, up
// to spool bytes, in a Spool once it passes max.
type capture struct {
	max       int
	tail      bool
	buf       []byte
	truncated bool
	spool     int
	spooled   *Spool
}

func (c *capture) Write(p []byte) (int, error) {
	if !c.tail && c.spool > 0 {
		switch {
		case c.spooled != nil:
			_, _ = c.spooled.Write(p)
		case len(c.buf)+len(p) > c.max:
			c.spooled = NewSpool(c.spool, c.buf)
			_, _ = c.spooled.Write(p)
		}
	}
	if c.tail {
		if len(p) >= c.max {
			c.truncated = c.truncated || len(p) > c.max || len(c.buf) > 0
			c.buf = append(c.buf[:0], p[len(p)-c.max:]...)
			return len(p), nil
		}
		if len(c.buf)+len(p) > 2*c.max {
			// Slide: keep what is still among the last max bytes.
			keep := c.max - len(p)
			c.buf = append(c.buf[:0], c.buf[len(c.buf)-keep:]...)
			c.truncated = true
		}
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	room := c.max - len(c.buf)
	if len(p) > room {
		c.truncated = true
		if room > 0 {
			c.buf = append(c.buf, p[:room]...)
		}
		return len(p), nil
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// text returns the captured bytes decoded as the agent's text-mode pipes
// decode them (pystr.DecodeText: one U+FFFD per invalid sequence, universal
// newlines). When the cut at max split a multi-byte character, the partial
// character is dropped rather than turned into U+FFFD: it was valid output,
// just cut short.
func (c *capture) text() (string, bool) {
	b := c.buf
	if c.tail && len(b) > c.max {
		b, c.truncated = b[len(b)-c.max:], true
	}
	switch {
	case c.truncated && c.tail:
		b = trimLeadingPartialRune(b)
	case c.truncated:
		b = trimPartialRune(b)
	}
	return pystr.DecodeText(b), c.truncated
}

// trimLeadingPartialRune drops the continuation bytes a tail cut left at
// the start of b.
func trimLeadingPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax-1 && i < len(b); i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax-1 && i <= len(b); i++ {
		start := len(b) - i
		if utf8.RuneStart(b[start]) {
			if !utf8.FullRune(b[start:]) {
				return b[:start]
			}
			return b
		}
	}
	return b
}

// StartError describes why a command could not start, as Run's Result.Err
// does (SPEC §5): "command not found", "command not executable", a missing
// interpreter, or the OS message.
func StartError(err error, argv0 string) string { return startError(err, argv0) }
