package guard

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/shell"
	"golang.org/x/sys/unix"
)

// judgeLimit is how much of stdout the guard keeps to judge the answer
// (SPEC §17 item 5); all of it is relayed.
const judgeLimit = 1 << 20

// exec runs COMMAND as the agent would have (SPEC §17 item 3): in the
// guard's process group, with its environment, stdin and stderr, stdout
// relayed byte for byte until EOF (a background child holding it keeps the
// guard waiting, as it keeps communicate waiting), and ends as it ended.
//
// With a dialect (d not nil), the payload is translated before the hook
// reads it and the hook's stdout and exit code are translated after,
// instead of being relayed as they are.
func (g *run) exec(d Dialect) int {
	var stdin []byte
	env := hookEnv()
	// feed: the hook's stdin is a pipe the guard writes, not the agent's:
	// the guard read the payload first, to translate it or record it.
	feed := d != nil || g.rec != nil
	if g.rec != nil {
		stdin = g.rec.readPayload()
		g.save(stdin)
	}
	if d != nil {
		payload := stdin
		if g.rec == nil {
			var err error
			if payload, err = io.ReadAll(os.Stdin); err != nil {
				return g.failStart("reading the payload: " + err.Error())
			}
		}
		in, err := d.Input(g.inv, payload)
		if err != nil {
			return g.failStart(err.Error())
		}
		if in.Skip != "" {
			// Not run, as the other tool would not run it: nothing to say.
			res := shell.Result{Elapsed: time.Since(g.start)}
			g.record(audit.Record{Status: audit.StatusSkipped, Refusal: in.Skip, Result: res}, nil)
			return 0
		}
		stdin, env = in.Stdin, append(env, in.Env...)
	}
	// Found as execvp finds it (Popen's lookup); started with ForkExec, not
	// os/exec, whose first start probes pidfd support with an extra child.
	path, err := exec.LookPath(g.inv.Inner[0])
	if errors.Is(err, exec.ErrDot) {
		// A "." (or empty) entry of PATH found it: execvp runs it, so do we.
		err = nil
	}
	if err != nil {
		return g.failStart(shell.StartError(err, g.inv.Inner[0]))
	}
	prog, err := pinnedProgram(path, g.verdict)
	for round := 0; err != nil && round < maxRereads && g.decideAgain(); round++ {
		// hermes hooks edit swapped in content it approved after the
		// decision (SPEC §25): what is there now was decided on again.
		prog, err = pinnedProgram(path, g.verdict)
	}
	if err != nil {
		return g.refuse(path, err.Error(), "see what changed with: hermes hooks diff "+shell.Quote(g.innerText()))
	}
	if prog != nil {
		defer prog.Close()
	}
	// A raw pipe read with blocking reads: the runtime's poller would add
	// a wake-up per chunk.
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return g.failStart(err.Error())
	}
	pr, pw := p[0], p[1]
	files := []uintptr{0, uintptr(pw), 2}
	inW, errR := -1, -1
	if feed {
		var q [2]int
		if err := syscall.Pipe2(q[:], syscall.O_CLOEXEC); err != nil {
			return g.failStart(err.Error())
		}
		files[0], inW = uintptr(q[0]), q[1]
	}
	if d != nil {
		var e [2]int
		if err := syscall.Pipe2(e[:], syscall.O_CLOEXEC); err != nil {
			return g.failStart(err.Error())
		}
		// The dialect reads stderr too (Claude Code's exit 2 quotes it);
		// it is still passed on to the agent as it comes.
		files[2], errR = uintptr(e[1]), e[0]
	}

	// Signals the terminal or the agent sends the group reach the hook
	// too; the guard outlives them so it can end as the hook ends. Set
	// before the hook starts, which may signal its group at once: the
	// forked child resets every signal the runtime handles to its default
	// before exec, so the hook gets the dispositions it would get bare
	// (only a signal ignored since the agent started stays ignored, as it
	// would bare).
	outliveGroupSignals()
	pid, err := syscall.ForkExec(execPath(path, prog), g.inv.Inner, &syscall.ProcAttr{
		Env:   env,
		Files: files,
	})
	syscall.Close(pw)
	if feed {
		syscall.Close(int(files[0]))
	}
	if d != nil {
		syscall.Close(int(files[2]))
	}
	if err != nil {
		syscall.Close(pr)
		if inW >= 0 {
			syscall.Close(inW)
		}
		if errR >= 0 {
			syscall.Close(errR)
		}
		return g.failStart(shell.StartError(err, g.inv.Inner[0]))
	}
	wit := g.watch()
	if inW >= 0 {
		go func() {
			// A hook that does not read its stdin makes this fail: fine.
			for b := stdin; len(b) > 0; {
				n, err := syscall.Write(inW, b)
				if err != nil && err != syscall.EINTR {
					break
				}
				b = b[max(n, 0):]
			}
			syscall.Close(inW)
		}()
	}
	var errKept chan kept
	if errR >= 0 {
		errKept = make(chan kept, 1)
		go func() { errKept <- relayTo(errR, 2, true, false); syscall.Close(errR) }()
	}
	kept := relay(pr, d == nil)
	syscall.Close(pr)
	var ws syscall.WaitStatus
	for {
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}

	res := shell.Result{Stdout: pystr.DecodeText(kept.buf), StdoutTruncated: kept.truncated, Answer: kept.spool, Elapsed: time.Since(g.start)}
	defer res.Release()
	var sig syscall.Signal
	code := 0
	final := kept.buf // what the agent reads on stdout
	switch {
	case err != nil:
		res.Err = err.Error()
		code = 1
	case ws.Signaled():
		sig = ws.Signal()
		c := -int(sig)
		res.ExitCode = &c
	default:
		code = ws.ExitStatus()
		res.ExitCode = &code
	}
	if d != nil {
		exit := code
		if sig != 0 {
			exit = -int(sig)
		}
		stderr := <-errKept
		out, c, warnings := d.Answer(g.inv, Out{Stdout: kept.buf, Stderr: stderr.buf, Truncated: kept.truncated, Exit: exit})
		_ = writeAll(out)
		final = out
		for _, w := range warnings {
			g.say("hermes-guard: " + w)
		}
		res.Stdout, res.StdoutTruncated = pystr.DecodeText(out), false
		if c != exit || sig == 0 {
			sig, code = 0, c
			res.ExitCode = &code
		}
	}
	rec := audit.Record{Status: audit.StatusRan, Result: res, Signal: int(sig)}
	if changed, before, after := scriptsChanged(g.verdict); changed != "" {
		g.sha, rec.SHA256After = before, after
		if !g.approvedNow() {
			// Reported, as run-event reports it; the next call is refused.
			g.say("hermes-guard: warning: " + changed + " changed while hook " + g.innerText() + " ran")
		}
	}
	if g.inv.FailClosed && g.blocking() {
		if why := closedGap(sig, code, final, res.StdoutTruncated); why != "" {
			// The agent would let this call through (SPEC §25): block it.
			g.record(rec, g.failClosed(why))
			wit.finish()
			return 2
		}
	}
	g.record(rec, g.judge(res).Answer)
	wit.finish()
	if sig != 0 {
		raise(sig)
		return 128 + int(sig) // not reached
	}
	return code
}

// hookEnv is the guard's environment without NoAuditEnv, so the hook
// sees what it would see bare.
func hookEnv() []string {
	env := os.Environ()
	if _, ok := os.LookupEnv(NoAuditEnv); !ok {
		return env
	}
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, NoAuditEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// failStart is a hook that could not start: the agent would have failed
// to spawn it (its error logged, nothing else). Fail-closed on a blocking
// event it blocks, as run-event does.
func (g *run) failStart(reason string) int {
	g.saveUnread()
	g.say("hermes-guard: hook " + g.innerText() + " could not start: " + reason)
	res := shell.Result{Err: reason, Elapsed: time.Since(g.start)}
	ev := g.judge(res)
	g.record(audit.Record{Status: audit.StatusRan, Result: res}, ev.Answer)
	if ev.Answer != nil && ev.Answer.Action == answer.ActionBlock {
		writeBlock(ev.Answer)
		return 2
	}
	return 1
}

// kept is the start of stdout, for the judge.
type kept struct {
	buf       []byte
	truncated bool
	// spool is all of stdout (up to shell.MaxAnswer) once it passed
	// judgeLimit, for the audit line's answer (SPEC §29 item 10): the
	// agent judges the whole stdout, so the line does too.
	spool *shell.Spool
}

// judge reads the run's answer as §7 does. Stderr went straight to the
// agent, so an exit-2 block's message is not the one the agent quotes
// from stderr; its kind (block) is the same.
func (g *run) judge(res shell.Result) answer.Evaluation {
	return answer.Evaluate(answer.EvalInput{Event: g.inv.Event, Command: g.innerText(),
		Blocking: g.blocking(), FailClosed: g.inv.FailClosed, Result: res})
}

// writeAll writes b to stdout; an error means the agent closed its end.
func writeAll(b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Write(1, b)
		switch {
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			// A non-blocking stdout handed down: wait until it drains.
			_, _ = unix.Poll([]unix.PollFd{{Fd: 1, Events: unix.POLLOUT}}, -1)
		case err != nil:
			return err
		default:
			b = b[n:]
		}
	}
	return nil
}

// relay copies the pipe r to stdout (when write) until EOF, keeping the
// first judgeLimit bytes. When stdout fails (the agent closed its end) it stops
// reading: closing r then hands the hook the broken pipe it would have met
// bare (EPIPE, or death by SIGPIPE, which the guard then re-raises).
func relay(r int, write bool) kept { return relayTo(r, 1, write, write) }

// relayTo is relay onto descriptor fd; with spool, what passes judgeLimit
// is kept in kept.spool.
func relayTo(r, fd int, write, spool bool) kept {
	var k kept
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(r, buf)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 {
			return k
		}
		room := judgeLimit - len(k.buf)
		if n > room && spool && k.spool == nil {
			k.spool = shell.NewSpool(shell.MaxAnswer, k.buf)
		}
		if k.spool != nil {
			k.spool.Write(buf[:n])
		}
		k.truncated = k.truncated || n > room
		k.buf = append(k.buf, buf[:min(n, room)]...)
		for out := buf[:n]; write && len(out) > 0; {
			w, err := syscall.Write(fd, out)
			switch {
			case err == syscall.EINTR:
			case err == syscall.EAGAIN:
				// A non-blocking stdout handed down: wait until it drains.
				_, _ = unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}, -1)
			case err != nil:
				return k
			default:
				out = out[w:]
			}
		}
	}
}
