package guard

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
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
func (g *run) exec() int {
	// Found as execvp finds it (Popen's lookup); started with ForkExec, not
	// os/exec, whose first start probes pidfd support with an extra child.
	path, err := exec.LookPath(g.inv.Inner[0])
	if err != nil {
		return g.failStart(shell.StartError(err, g.inv.Inner[0]))
	}
	// A raw pipe read with blocking reads: the runtime's poller would add
	// a wake-up per chunk.
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return g.failStart(err.Error())
	}
	pr, pw := p[0], p[1]

	// Signals the terminal or the agent sends the group reach the hook
	// too; the guard outlives them so it can end as the hook ends. (Caught,
	// not ignored: the hook gets default dispositions back at exec.)
	if g.audit {
		go audit.Warm() // while the hook runs, so the line costs nothing after
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	pid, err := syscall.ForkExec(path, g.inv.Inner, &syscall.ProcAttr{
		Env:   hookEnv(),
		Files: []uintptr{0, uintptr(pw), 2},
	})
	syscall.Close(pw)
	if err != nil {
		syscall.Close(pr)
		signal.Stop(sigs)
		return g.failStart(shell.StartError(err, g.inv.Inner[0]))
	}
	kept := relay(pr)
	syscall.Close(pr)
	var ws syscall.WaitStatus
	for {
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		if err != syscall.EINTR {
			break
		}
	}
	signal.Stop(sigs)

	res := shell.Result{Stdout: pystr.DecodeText(kept.buf), StdoutTruncated: kept.truncated, Elapsed: time.Since(g.start)}
	var sig syscall.Signal
	code := 0
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
	// Stderr went straight to the agent; the judge reads the exit-2
	// message from it, so a block's message is not what the agent quotes
	// when stderr mattered. The kind (block) is the same.
	ev := answer.Evaluate(answer.EvalInput{Event: g.inv.Event, Command: g.innerText(),
		Blocking: g.blocking(), FailClosed: g.inv.FailClosed, Result: res})
	g.record(audit.Record{Status: audit.StatusRan, Result: res, Signal: int(sig)}, ev.Answer)
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
	fmt.Fprintln(os.Stderr, oneLine("hermes-guard: hook "+g.innerText()+" could not start: "+reason))
	res := shell.Result{Err: reason, Elapsed: time.Since(g.start)}
	ev := answer.Evaluate(answer.EvalInput{Event: g.inv.Event, Command: g.innerText(),
		Blocking: g.blocking(), FailClosed: g.inv.FailClosed, Result: res})
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
}

// relay copies the pipe r to stdout until EOF, keeping the first
// judgeLimit bytes. When stdout fails (the agent closed its end) it stops
// reading: closing r then hands the hook the broken pipe it would have met
// bare (EPIPE, or death by SIGPIPE, which the guard then re-raises).
func relay(r int) kept {
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
		k.truncated = k.truncated || n > room
		k.buf = append(k.buf, buf[:min(n, room)]...)
		for out := buf[:n]; len(out) > 0; {
			w, err := syscall.Write(1, out)
			switch {
			case err == syscall.EINTR:
			case err == syscall.EAGAIN:
				// A non-blocking stdout handed down: wait until it drains.
				_, _ = unix.Poll([]unix.PollFd{{Fd: 1, Events: unix.POLLOUT}}, -1)
			case err != nil:
				return k
			default:
				out = out[w:]
			}
		}
	}
}
