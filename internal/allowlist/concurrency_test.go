package allowlist

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// helperEnv selects the helper mode of the test binary: it approves one hook
// through Store.Update and exits, so concurrency is tested between real
// processes, each with its own open file and flock.
const helperEnv = "ALLOWLIST_TEST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "approve" {
		os.Exit(helperApprove())
	}
	os.Exit(m.Run())
}

// helperApprove waits for stdin to close (the start signal, so all helpers
// contend at once), then approves HOME_DIR's hook EVENT/COMMAND.
func helperApprove() int {
	io.Copy(io.Discard, os.Stdin)
	s := Open(os.Getenv("ALLOWLIST_HOME"))
	cmd := os.Getenv("ALLOWLIST_COMMAND")
	_, err := s.Update(func(l *List) error {
		l.Approve(Entry{Event: "pre_tool_call", Command: cmd, ApprovedAt: FormatTime(fixedNow)})
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

func checkAll(t *testing.T, s *Store, n int) {
	t.Helper()
	l, warnings, err := s.Read()
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Read: %q %v", warnings, err)
	}
	if len(l.Approvals) != n {
		t.Errorf("%d approvals recorded, want %d", len(l.Approvals), n)
	}
	for i := range n {
		if _, ok := l.Find("pre_tool_call", fmt.Sprintf("hook-%02d.sh", i)); !ok {
			t.Errorf("hook-%02d.sh lost", i)
		}
	}
}

func TestConcurrentProcessesAllRecorded(t *testing.T) {
	const n = 32
	home := t.TempDir()
	var stdins []io.WriteCloser
	var cmds []*exec.Cmd
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"=approve", "ALLOWLIST_HOME="+home,
			fmt.Sprintf("ALLOWLIST_COMMAND=hook-%02d.sh", i))
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stdins = append(stdins, stdin)
		cmds = append(cmds, cmd)
	}
	for _, w := range stdins { // release them together
		w.Close()
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v", i, err)
		}
	}
	s := Open(home)
	checkAll(t, s, n)
	if names := dirNames(t, home); len(names) != 2 {
		t.Errorf("home holds %v", names)
	}
}

func TestConcurrentGoroutinesAllRecorded(t *testing.T) {
	const n = 32
	home := t.TempDir()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if _, err := Open(home).Update(approve("pre_tool_call", fmt.Sprintf("hook-%02d.sh", i))); err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
	checkAll(t, Open(home), n)
}

// Hooks are matched from several goroutines (doctor's smoke runs); a list
// just read must allow that (run with -race to see it matter).
func TestConcurrentFindOnReadList(t *testing.T) {
	s := newStore(t)
	if _, err := s.Update(approve("pre_tool_call", "hook-00.sh")); err != nil {
		t.Fatal(err)
	}
	for _, missing := range []bool{false, true} {
		if missing {
			os.Remove(s.Path)
		}
		l, _, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, ok := l.Find("pre_tool_call", "hook-00.sh"); ok == missing {
					t.Errorf("Find = %v with the file missing=%v", ok, missing)
				}
			}()
		}
		wg.Wait()
	}
}
