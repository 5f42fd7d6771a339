package shell

import (
	"context"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// spoolRun runs a hook that prints the numbers 1..n, one a line, with a
// display cap of 1000 bytes and a judging cap of maxAnswer.
func spoolRun(t *testing.T, n, maxAnswer int) (Result, string) {
	t.Helper()
	path, _ := hookScript(t, "seq 1 "+itoa(n)+"\n")
	want, err := exec.Command("seq", "1", itoa(n)).Output()
	if err != nil {
		t.Skip("no seq:", err)
	}
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute,
		MaxOutput: 1000, MaxAnswer: maxAnswer})
	t.Cleanup(res.Release)
	return res, string(want)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestSpoolKeepsTheWholeStdoutForJudging: past the display cap the run
// still has every byte of stdout, for the judge, while Stdout keeps only
// the cap.
func TestSpoolKeepsTheWholeStdoutForJudging(t *testing.T) {
	res, want := spoolRun(t, 3000, 1<<20)
	if !res.StdoutTruncated || len(res.Stdout) != 1000 {
		t.Fatalf("display: truncated=%v len=%d, want the first 1000 bytes", res.StdoutTruncated, len(res.Stdout))
	}
	if res.Answer == nil || res.Answer.Cut || res.Answer.Err != nil {
		t.Fatalf("answer spool: %+v", res.Answer)
	}
	b, err := res.Answer.Bytes()
	if err != nil || string(b) != want {
		t.Fatalf("spooled %d bytes (err %v), want the whole %d", len(b), err, len(want))
	}
	res.Release()
	if res.Answer != nil {
		t.Fatal("Release left the spool")
	}
}

// TestSpoolCutsPastItsLimit: the spool keeps its limit and says it was
// cut.
func TestSpoolCutsPastItsLimit(t *testing.T) {
	res, want := spoolRun(t, 3000, 5000)
	if res.Answer == nil || !res.Answer.Cut {
		t.Fatalf("answer spool: %+v, want cut", res.Answer)
	}
	b, err := res.Answer.Bytes()
	if err != nil || string(b) != want[:5000] {
		t.Fatalf("spooled %d bytes (err %v), want the first 5000", len(b), err)
	}
}

// TestSpoolOnlyPastTheDisplayCap: a stdout within the cap is not spooled,
// one exactly at the judging limit is not cut, and none is kept unless
// asked for.
func TestSpoolOnlyPastTheDisplayCap(t *testing.T) {
	if res, _ := spoolRun(t, 200, 1<<20); res.StdoutTruncated || res.Answer != nil {
		t.Errorf("small stdout: truncated=%v spool=%+v", res.StdoutTruncated, res.Answer)
	}
	res, want := spoolRun(t, 3000, MaxAnswer)
	if res.Answer == nil || res.Answer.Cut || res.Answer.Limit() != MaxAnswer {
		t.Errorf("the engine's limit: %+v", res.Answer)
	}
	if res, _ := spoolRun(t, 3000, len(want)); res.Answer == nil || res.Answer.Cut {
		t.Errorf("exactly at the limit: %+v, want whole", res.Answer)
	}
	if res, _ := spoolRun(t, 3000, 0); res.Answer != nil {
		t.Errorf("no spool asked for: %+v", res.Answer)
	}
}
