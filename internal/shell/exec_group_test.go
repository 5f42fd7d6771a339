package shell

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hermes-hooks/hermes/internal/proctest"
)

// readPid reads a pid a hook script wrote into dir.
func readPid(t *testing.T, dir, name string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("the hook did not record its %s: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("bad %s %q: %v", name, b, err)
	}
	return pid
}

// assertGroupGone fails if a process of group pgid is alive. A member that
// was sent SIGKILL may still be on its way out when Run returns, so it gets
// up to 5 s to exit.
func assertGroupGone(t *testing.T, pgid int) {
	t.Helper()
	proctest.WaitGroupGone(t, pgid, 5*time.Second)
}

// killAtCleanup makes sure a process the test let escape does not outlive it.
func killAtCleanup(t *testing.T, pid int) {
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
}

// The SPEC §12 bar: a hook whose grandchild escaped its group and holds
// stdout, and which itself sleeps past the timeout, is killed with its whole
// group and Run returns within the timeout plus 2 s.
func TestRunTimeoutWithEscapedGrandchildHoldingStdout(t *testing.T) {
	path, dir := hookScript(t, `echo $$ > "$DIR/pgid"
setsid sleep 60 &
echo $! > "$DIR/escaped"
sleep 60 &
echo started
wait
`)
	const timeout = 2 * time.Second
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Env: envWith(dir), Timeout: timeout})
	killAtCleanup(t, readPid(t, dir, "escaped"))

	if !res.TimedOut || res.ExitCode != nil || res.Err != "" {
		t.Errorf("got TimedOut %v ExitCode %v Err %q; want a timeout with no exit code", res.TimedOut, res.ExitCode, res.Err)
	}
	if res.Stdout != "started\n" {
		t.Errorf("output before the kill is kept: stdout = %q", res.Stdout)
	}
	// The functional contract of SPEC §12 (the escaped sleep holds stdout
	// for 60 s, so a runner that waited for EOF would be far over).
	if res.Elapsed >= timeout+2*time.Second {
		t.Errorf("Run took %v; the bar is timeout + 2 s", res.Elapsed)
	}
	assertGroupGone(t, readPid(t, dir, "pgid"))
}

// A background job that keeps stdout open keeps the run going until the
// timeout; then the job is killed with the group, and the hook, which
// exited 0 in time with a valid answer, is judged on that answer: it did
// not time out.
func TestRunLeaderExitedButGroupHoldsStdout(t *testing.T) {
	path, dir := hookScript(t, `echo $$ > "$DIR/pgid"
echo '{"action": "block", "message": "no"}'
sh -c 'sleep 60' &
exit 0
`)
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Env: envWith(dir), Timeout: time.Second})
	if res.TimedOut || res.Err != "" {
		t.Errorf("got TimedOut %v Err %q; the hook itself finished in time", res.TimedOut, res.Err)
	}
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("the leader exited 0 before the timeout; ExitCode = %v", res.ExitCode)
	}
	if res.Stdout != "{\"action\": \"block\", \"message\": \"no\"}\n" {
		t.Errorf("stdout = %q; what the hook printed is kept", res.Stdout)
	}
	assertGroupGone(t, readPid(t, dir, "pgid"))
}

// A helper that let go of our pipes may outlive the hook (SPEC §5).
func TestRunDetachedHelperDoesNotHoldTheRun(t *testing.T) {
	path, dir := hookScript(t, `sleep 60 >/dev/null 2>&1 &
echo $! > "$DIR/helper"
echo bye
`)
	// Were the helper waited for, this run would last the full 60 s and
	// end timed out.
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Env: envWith(dir), Timeout: time.Minute})
	helper := readPid(t, dir, "helper")
	killAtCleanup(t, helper)
	if res.TimedOut || res.Stdout != "bye\n" || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("got %+v; want a clean exit", res)
	}
	if err := syscall.Kill(helper, 0); err != nil {
		t.Errorf("the detached helper was killed (%v); SPEC §5 lets it live", err)
	}
}

// Ctrl-C: the CLI cancels ctx, and the whole group goes.
func TestRunContextCancelKillsGroup(t *testing.T) {
	path, dir := hookScript(t, `echo $$ > "$DIR/pgid"
sleep 60 &
echo ready > "$DIR/fifo"
wait
`)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// O_RDWR so opening does not wait for the writer.
	f, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ready := make(chan struct{})
	go func() {
		buf := make([]byte, 6)
		if _, err := f.Read(buf); err == nil {
			close(ready)
		}
	}()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		done <- Exec{}.Run(ctx, Request{Argv: []string{path}, Env: envWith(dir), Timeout: time.Minute})
	}()
	select {
	case <-ready:
	case res := <-done:
		t.Fatalf("the hook ended before it was interrupted: %+v", res)
	}
	cancel()
	res := <-done
	if res.Err != "interrupted" || res.TimedOut || res.ExitCode != nil {
		t.Errorf("got Err %q TimedOut %v ExitCode %v; want interrupted", res.Err, res.TimedOut, res.ExitCode)
	}
	assertGroupGone(t, readPid(t, dir, "pgid"))
}

func TestRunAlreadyCancelled(t *testing.T) {
	path, dir := hookScript(t, `touch "$DIR/ran"`+"\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Exec{}.Run(ctx, Request{Argv: []string{path}, Env: envWith(dir), Timeout: time.Minute})
	if res.Err != "interrupted" {
		t.Errorf("Err = %q, want interrupted", res.Err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the hook ran although the context was already cancelled")
	}
}
