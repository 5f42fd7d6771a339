package proctest

import (
	"fmt"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// recorder is a testing.TB that keeps the failures a helper reports
// instead of failing the test that checks the helper.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// startGroup starts `sleep 60` as the leader of a process group of its own
// and returns it unreaped; the test's end kills and reaps it.
func startGroup(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	return cmd
}

func TestWaitGroupGoneReportsALiveMember(t *testing.T) {
	cmd := startGroup(t)
	pgid := cmd.Process.Pid
	alive, _ := Group(pgid)
	if len(alive) != 1 || alive[0].Pid != pgid || alive[0].Comm != "sleep" {
		t.Fatalf("Group(%d) = %v, want the sleep", pgid, alive)
	}

	r := &recorder{TB: t}
	WaitGroupGone(r, pgid, 100*time.Millisecond) // sleep 60 outlives it
	if len(r.errors) != 1 {
		t.Fatalf("reported %q, want one failure naming the live process", r.errors)
	}
	// It killed what it found, so that nothing outlives the test.
	if err := cmd.Wait(); err == nil || cmd.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("the live member ended with %v, want killed by SIGKILL", err)
	}
}

func TestWaitGroupGoneCountsZombiesAsGone(t *testing.T) {
	cmd := startGroup(t)
	pgid := cmd.Process.Pid
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Not reaped: once dead it stays a zombie until the cleanup's Wait.
	r := &recorder{TB: t}
	zombies := WaitGroupGone(r, pgid, time.Minute)
	if len(r.errors) != 0 || zombies != 1 {
		t.Errorf("reported %q with %d zombies; want no failure and 1 zombie", r.errors, zombies)
	}
	if !Exited(t, pgid, 0) {
		t.Error("Exited says the killed process is still running")
	}
}
