package audit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// bigAnswer is a hook's answer carrying n bytes of message.
func bigAnswer(n int) *pyjson.Object {
	return pyjson.NewObject().Set("context", strings.Repeat("é", n/2))
}

// SPEC §24 item 5: a line keeps at most 4,096 bytes of each string of the
// answer, says it was cut, and stays valid UTF-8.
func TestAnswerStringsAreCapped(t *testing.T) {
	home := t.TempDir()
	r := rec("/h.sh")
	r.Answer = pyjson.NewObject().Set("action", "block").Set("message", strings.Repeat("é", 1<<19)).
		Set(strings.Repeat("k", 5000), "v")
	if err := Append(home, r); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(Path(home))
	if len(data) > 3*MaxString {
		t.Errorf("line of %d bytes for a 1 MiB answer", len(data))
	}
	obj, err := pyjson.DecodeObject(data)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := obj.Get("truncated"); v != true {
		t.Errorf("truncated = %v, want true", v)
	}
	parsed := obj.Value("parsed").(*pyjson.Object)
	if msg := parsed.Str("message"); len(msg) != MaxString || !strings.HasPrefix(msg, "éé") {
		t.Errorf("message kept %d bytes, want %d (whole characters)", len(msg), MaxString)
	}
	if parsed.Str("action") != "block" {
		t.Errorf("the action was lost: %v", parsed.Keys())
	}
	// A small answer is stored as it is, without the flag.
	r.Answer = pyjson.NewObject().Set("action", "approve")
	if err := Append(home, r); err != nil {
		t.Fatal(err)
	}
	lines := readLines(t, home)
	if raw := string(lines[1].Raw); strings.Contains(raw, "truncated") || !strings.Contains(raw, `"parsed":{"action":"approve"}`) {
		t.Errorf("small answer stored as %s", raw)
	}
}

// SPEC §24 item 5: one refusal, then 1,000 firings answering 1 MiB each;
// the refusal is still read back (log --status refused, stats). The log is
// made small here so the firings do rotate it away twice over: the kept
// file must give it back.
func TestRefusalOutlivesAFlood(t *testing.T) {
	home := t.TempDir()
	old := rotateSize
	rotateSize = 64 << 10
	defer func() { rotateSize = old }()
	refused := rec("/guarded.sh")
	refused.Status, refused.Refusal, refused.Via = StatusRefused, "script modified since approval", ViaExec
	if err := Append(home, refused); err != nil {
		t.Fatal(err)
	}
	n := 1000
	if testing.Short() {
		n = 100
	}
	answer := bigAnswer(1 << 20)
	for i := range n {
		r := rec(fmt.Sprintf("/noisy.sh %d", i))
		r.Answer = answer
		if err := Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	if data, _ := os.ReadFile(RotatedPath(Path(home))); bytes.Contains(data, []byte("/guarded.sh")) {
		t.Fatal("the flood did not rotate the refusal out of the log: the test proves nothing")
	}
	var got []string
	stats := NewStats()
	_, err := ReadAll(Path(home), func(l Line) error {
		if l.Outcome() == OutcomeRefused {
			got = append(got, l.Command)
		}
		stats.Add(&l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != "/guarded.sh" {
		t.Errorf("refusals read back: %q, want the one", got)
	}
	found := false
	for _, h := range stats.Hooks() {
		found = found || h.Hook == "/guarded.sh" && h.Refusals == 1
	}
	if !found {
		t.Error("stats lost the refusal")
	}
}

// A kept line still in the log is read once, in its place.
func TestKeptLineReadOnce(t *testing.T) {
	home := t.TempDir()
	blocked := rec("/b.sh")
	blocked.Answer = pyjson.NewObject().Set("action", "block").Set("message", "no")
	for _, r := range []Record{rec("/a.sh"), blocked, rec("/c.sh")} {
		if err := Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, l := range readLines(t, home) {
		got = append(got, l.Command)
	}
	if strings.Join(got, ",") != "/a.sh,/b.sh,/c.sh" {
		t.Errorf("lines %q", got)
	}
	if data, _ := os.ReadFile(KeptPath(Path(home))); !bytes.Contains(data, []byte("/b.sh")) || bytes.Contains(data, []byte("/a.sh")) {
		t.Errorf("kept file holds %q, want the block only", data)
	}
}

// A failure is kept only for a hook that fails closed.
func TestFailuresKeptWhenFailClosed(t *testing.T) {
	home := t.TempDir()
	for _, fc := range []bool{false, true} {
		r := rec(fmt.Sprintf("/fail-%v.sh", fc))
		code := 3
		r.Result.ExitCode, r.FailClosed = &code, fc
		if err := Append(home, r); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(KeptPath(Path(home)))
	if !bytes.Contains(data, []byte("/fail-true.sh")) || bytes.Contains(data, []byte("/fail-false.sh")) {
		t.Errorf("kept file holds %q", data)
	}
}

// SPEC §29 item 4 and 5: TryAppend never waits; AppendWait writes once the
// lock is free and never a second line for an id already written.
func TestTryAppendAndAppendWait(t *testing.T) {
	home := t.TempDir()
	if err := Append(home, rec("first")); err != nil {
		t.Fatal(err)
	}
	unlock := holdLock(t, home)
	r := rec("second")
	r.ID = "0123456789abcdef0123456789abcdef"
	e, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := TryAppend(home, e); err != ErrBusy {
		t.Fatalf("TryAppend with the lock held: %v, want ErrBusy", err)
	}
	done := make(chan error, 1)
	go func() { done <- AppendWait(home, e, time.Minute) }()
	select {
	case err := <-done:
		t.Fatalf("AppendWait went ahead while the lock was held: %v", err)
	default:
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The witness comes second with the same id: nothing more.
	if err := AppendWait(home, e, time.Minute); err != nil {
		t.Fatal(err)
	}
	if n := len(readLines(t, home)); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}

// AppendWait gives up the lock after its wait and appends anyway, whole.
func TestAppendWaitGivesUpTheLock(t *testing.T) {
	home := t.TempDir()
	if err := Append(home, rec("first")); err != nil {
		t.Fatal(err)
	}
	holdLock(t, home)
	e, _ := Encode(rec("second"))
	if err := AppendWait(home, e, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if n := len(readLines(t, home)); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}

// SPEC §29 item 5, reproduced: a writer SIGKILLed in the middle of a
// 300 KB line leaves a fragment; the next append takes it away, so every
// line read back is whole.
func TestStressKilledWriterLeavesNoFragment(t *testing.T) {
	if os.Getenv("AUDIT_KILL_WRITER") != "" {
		big := strings.Repeat("x", 300<<10)
		for i := 0; ; i++ {
			Append(os.Getenv("AUDIT_KILL_WRITER"), rec(fmt.Sprintf("%d %s", i, big)))
		}
	}
	home := t.TempDir()
	tries := 20
	if os.Getenv("HERMES_STRESS") == "full" {
		tries = 300
	}
	torn := 0
	for i := range tries {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStressKilledWriterLeavesNoFragment$")
		cmd.Env = append(os.Environ(), "AUDIT_KILL_WRITER="+home)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it once it has written something (100 KB more, or the
		// log rotated past RotateSize under it), at varying points of
		// its 300 KB lines.
		var start int64
		if st, err := os.Stat(Path(home)); err == nil {
			start = st.Size()
		}
		deadline := time.Now().Add(30 * time.Second)
		for st, _ := os.Stat(Path(home)); st == nil || st.Size() < start+100<<10 && st.Size() >= start; st, _ = os.Stat(Path(home)) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("kill %d: the writer wrote nothing in 30 s", i)
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if data, _ := os.ReadFile(Path(home)); len(data) > 0 && data[len(data)-1] != '\n' {
			torn++
		}
		if err := Append(home, rec(fmt.Sprintf("after kill %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	lines := readLines(t, home) // fails on any unreadable line
	t.Logf("%d kills, %d left a fragment, %d lines read back whole", tries, torn, len(lines))
}
