package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

// TestChurningAllowlistNeverApprovesModified attacks the guard's reading
// of the allowlist again while it keeps changing (SPEC §25: an edit's
// staged approval may land between the read and the hash). A writer
// rewrites the allowlist as fast as it can, never approving the modified
// script's content; the guard, fired through the agent's runner, must
// still refuse it, never run it, and end (the rereads are bounded).
func TestChurningAllowlistNeverApprovesModified(t *testing.T) {
	l := newLab(t)
	ran := filepath.Join(l.dir, "ran")
	script := l.script("churned.sh", "cat >/dev/null\nexit 0\n")
	wrapped := l.protect("pre_tool_call", true, script)
	appendFile(t, script, "touch "+ran+"\necho '{\"action\": \"approve\"}'\n")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes int
	wg.Add(1)
	go func() {
		defer wg.Done()
		store := allowlist.Open(l.hh)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			// Another pair each time, so that every write is a new file.
			e := allowlist.Entry{Event: "post_tool_call", Command: fmt.Sprintf("/elsewhere/noise %d", i), ApprovedAt: time.Now().UTC().Format(time.RFC3339)}
			if _, err := store.Update(func(list *allowlist.List) error { list.Approve(e); return nil }); err != nil {
				t.Error(err)
				return
			}
			writes++
		}
	}()
	for range 5 {
		r := l.run("pre_tool_call", wrapped, payload, 20)
		if _, err := os.Stat(ran); err == nil {
			close(stop)
			wg.Wait()
			t.Fatal("the modified script ran through the guard while the allowlist churned")
		}
		if r.TimedOut || r.ReturnCode != 2 || !strings.HasPrefix(string(r.Answer), `{"action": "block", "message": "hook `+script+` refused by hermes: modified since approval`) {
			t.Errorf("returncode %d, timed out %v, answer %s; want a block for the modification", r.ReturnCode, r.TimedOut, r.Answer)
		}
	}
	close(stop)
	wg.Wait()
	if writes < 5 {
		t.Errorf("only %d writes of the allowlist while the guard fired: no churn", writes)
	}
	t.Logf("%d allowlist writes during 5 firings", writes)
}
