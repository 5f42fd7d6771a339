package guard

import (
	"errors"
	"fmt"
	"io"
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
)

// judgeLimit is how much of stdout the guard keeps to judge the answer
// (SPEC §17 item 5); all of it is relayed.
const judgeLimit = 1 << 20

// exec runs COMMAND as the agent would have (SPEC §17 item 3): in the
// guard's process group, with its environment, stdin and stderr, stdout
// relayed byte for byte until EOF (a background child holding it keeps the
// guard waiting, as it keeps communicate waiting), and ends as it ended.
func (g *run) exec() int {
	cmd := exec.Command(g.inv.Inner[0], g.inv.Inner[1:]...)
	cmd.Args = g.inv.Inner
	cmd.Env = hookEnv()
	cmd.Stdin, cmd.Stderr = os.Stdin, os.Stderr
	pr, pw, err := os.Pipe()
	if err != nil {
		return g.failStart(err.Error())
	}
	cmd.Stdout = pw

	// Signals the terminal or the agent sends the group reach the hook
	// too; the guard outlives them so it can end as the hook ends. (Caught,
	// not ignored: exec gives the hook default dispositions back.)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)

	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		signal.Stop(sigs)
		return g.failStart(shell.StartError(err, g.inv.Inner[0]))
	}
	pw.Close()
	kept := relay(os.Stdout, pr)
	pr.Close()
	werr := cmd.Wait()
	signal.Stop(sigs)

	res := shell.Result{Stdout: pystr.DecodeText(kept.buf), StdoutTruncated: kept.truncated, Elapsed: time.Since(g.start)}
	var sig syscall.Signal
	code := 0
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		sig = ws.Signal()
		c := -int(sig)
		res.ExitCode = &c
	case cmd.ProcessState != nil:
		code = cmd.ProcessState.ExitCode()
		res.ExitCode = &code
	default:
		res.Err = werr.Error()
		code = 1
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

// hookEnv is the guard's environment without NoAuditEnv (nil: inherit as
// is), so the hook sees what it would see bare.
func hookEnv() []string {
	if _, ok := os.LookupEnv(NoAuditEnv); !ok {
		return nil
	}
	env := os.Environ()
	out := env[:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, NoAuditEnv+"=") {
			out = append(out, kv)
		}
	}
	return out
}

// kept is the start of stdout, for the judge.
type kept struct {
	buf       []byte
	truncated bool
}

// relay copies r to w until EOF, keeping the first judgeLimit bytes. A
// write error (the agent closed its end) stops the writing but not the
// draining, so the hook never blocks on a full pipe; writing to a closed
// pipe on fd 1 ends the guard by SIGPIPE, as it would end the bare hook.
func relay(w io.Writer, r io.Reader) kept {
	var k kept
	buf := make([]byte, 64<<10)
	var werr error
	for {
		n, err := r.Read(buf)
		if n > 0 {
			room := judgeLimit - len(k.buf)
			k.truncated = k.truncated || n > room
			k.buf = append(k.buf, buf[:min(n, room)]...)
			if werr == nil {
				_, werr = w.Write(buf[:n])
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && werr == nil {
				werr = err
			}
			return k
		}
	}
}
