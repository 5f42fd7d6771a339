package audit

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestOutcome(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0,"timed_out":false,"error":null,"parsed":null}`, "ok"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":2,"parsed":{"action":"block","message":"no"}}`, "block"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0,"parsed":{"action":"modify","args":{}}}`, "modify"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0,"parsed":{"action":"approve"}}`, "approve"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0,"parsed":{"context":"x"}}`, "context"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":1,"parsed":null}`, "failed"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"error":"no such file","parsed":null}`, "failed"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"signal":9,"via":"exec","status":"ran","answer":"none"}`, "failed"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"timed_out":true,"parsed":{"action":"block"}}`, "timeout"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":1,"via":"exec","status":"ran","answer":"block"}`, "block"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"via":"exec","status":"refused","refusal":"modified"}`, "refused"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"via":"exec","status":"skipped","refusal":"outside project"}`, "skipped"},
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":null,"status":"interrupted"}`, "interrupted"},
		{`{"time":"2026-12-01T10:00:00Z","event":"agent:start","kind":"gateway","name":"n","error":"boom"}`, "failed"},
		{`{"time":"2026-12-01T10:00:00Z","event":"command:status","kind":"gateway","name":"n","error":null,"parsed":{"decision":"deny"},"answer":"deny"}`, "block"},
		{`{"time":"2026-12-01T10:00:00Z","event":"command:m","kind":"gateway","name":"n","error":null,"parsed":{"decision":"rewrite","command":"/model x"},"answer":"rewrite"}`, "modify"},
		{`{"time":"2026-12-01T10:00:00Z","event":"command:reset","kind":"gateway","name":"n","error":null,"parsed":{"decision":"handled"},"answer":"handled"}`, "ok"},
		// NaN is the agent's JSON, not encoding/json's: read all the same.
		{`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0,"parsed":{"action":"modify","args":{"x":NaN}}}`, "modify"},
	} {
		l, err := ParseLine([]byte(c.line))
		if err != nil {
			t.Errorf("%s: %v", c.line, err)
			continue
		}
		if got := l.Outcome(); got != c.want {
			t.Errorf("%s: outcome %s, want %s", c.line, got, c.want)
		}
	}
}

func TestParseLineRefusesForeign(t *testing.T) {
	for _, s := range []string{`{"time":"2026-12-01T10:00:00Z","ev`, `[1,2]`, `{"hello":1}`,
		`{"time":"yesterday","event":"e","kind":"shell"}`, `not json`,
		`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell"}{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell"}`} {
		if _, err := ParseLine([]byte(s)); err == nil {
			t.Errorf("%s: read as an audit line", s)
		}
	}
}

func TestReaderHoldsBackAnUnfinishedLine(t *testing.T) {
	pr, pw := io.Pipe()
	rd := NewReader("log", pr)
	whole := `{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"one"}`
	go func() {
		fmt.Fprint(pw, whole+"\n"+whole[:20])
		pw.Close()
	}()
	l, err := rd.Next()
	if err != nil || l.Command != "one" {
		t.Fatalf("first line: %v %v", l.Command, err)
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("unfinished line returned: %v", err)
	}
	if _, ok := rd.Flush(); ok || rd.Skipped != 1 {
		t.Errorf("flushed a torn line as whole (skipped %d)", rd.Skipped)
	}
}

func TestReadAllReadsBothFilesAndCountsTorn(t *testing.T) {
	home := t.TempDir()
	path := Path(home)
	os.MkdirAll(filepath.Dir(path), 0o700)
	line := func(c string) string {
		return `{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"` + c + `"}` + "\n"
	}
	os.WriteFile(RotatedPath(path), []byte(line("a")+"garbage\n"+line("b")), 0o600)
	os.WriteFile(path, []byte(line("c")+`{"time":"2026-12-01T1`+"\n\n"+line("d")+strings.TrimSuffix(line("e"), "\n")), 0o600)
	var got []string
	skipped, err := ReadAll(path, func(l Line) error { got = append(got, l.Command); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "") != "abcde" {
		t.Errorf("read %q, want a b c d e (rotated first, a last line without newline kept)", got)
	}
	if len(skipped) != 2 || skipped[0].Lines != 1 || skipped[1].Lines != 1 {
		t.Errorf("skipped %+v, want one line in each file", skipped)
	}
}

func TestReadAllMissingAndFIFO(t *testing.T) {
	home := t.TempDir()
	if _, err := ReadAll(Path(home), func(Line) error { t.Fatal("a line from nothing"); return nil }); err != nil {
		t.Fatalf("a missing log is an error: %v", err)
	}
}

func TestStats(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	s := NewStats()
	add := func(line string) {
		l, err := ParseLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		s.Add(&l)
	}
	for i := 1; i <= 20; i++ {
		add(fmt.Sprintf(`{"time":"2026-12-01T10:%02d:00Z","event":"pre_tool_call","kind":"shell","command":"g","exit_code":0,"elapsed_seconds":%d}`, i, i))
	}
	add(`{"time":"2026-12-01T11:00:00Z","event":"pre_tool_call","kind":"shell","command":"g","exit_code":2,"elapsed_seconds":0.5,"parsed":{"action":"block"}}`)
	add(`{"time":"2026-12-01T11:01:00Z","event":"pre_tool_call","kind":"shell","command":"g","timed_out":true,"elapsed_seconds":60}`)
	add(`{"time":"2026-12-01T12:00:00Z","event":"pre_tool_call","kind":"shell","command":"g","status":"refused","via":"exec"}`)
	add(`{"time":"2026-12-01T10:00:00Z","event":"agent:start","kind":"gateway","name":"n","parsed":{"context":"c"}}`)
	hooks := s.Hooks()
	if len(hooks) != 2 || hooks[0].Event != "agent:start" {
		t.Fatalf("hooks %+v", hooks)
	}
	g := hooks[1]
	if g.Runs != 22 || g.Blocks != 1 || g.Timeouts != 1 || g.Failures != 1 || g.Refusals != 1 {
		t.Errorf("counts %+v", g)
	}
	if g.P50 != 10 || g.P95 != 20 || g.Max != 60 {
		t.Errorf("p50 %v p95 %v max %v, want 10 20 60", g.P50, g.P95, g.Max)
	}
	if !g.LastRun.Equal(at.Add(61 * time.Minute)) {
		t.Errorf("last run %v: a refusal is not a run", g.LastRun)
	}
	if b := Buckets(g.Times, at, at.Add(2*time.Hour), 4); fmt.Sprint(b) != "[20 0 2 0]" {
		t.Errorf("buckets %v", b)
	}
}

func TestLatestOf(t *testing.T) {
	home := t.TempDir()
	path := Path(home)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(strings.Join([]string{
		`{"time":"2026-12-01T09:00:00Z","event":"pre_tool_call","kind":"shell","command":"g","exit_code":0,"via":"exec","status":"ran"}`,
		`{"time":"2026-12-01T10:30:00Z","event":"pre_tool_call","kind":"shell","command":"g","via":"exec","status":"refused","refusal":"script modified"}`,
		`{"time":"2026-12-01T10:40:00Z","event":"pre_tool_call","kind":"shell","command":"other","exit_code":0}`,
		`{"time":"2026-12-01T11:00:00Z","event":"pre_tool_call","kind":"shell","command":"g","via":"exec","status":"refused","refusal":"not approved"}`,
	}, "\n")+"\n"), 0o600)
	since := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	want := func(l *Line) bool { return l.Hook() == "g" }
	got, _, err := LatestOf(path, since, want)
	if err != nil {
		t.Fatal(err)
	}
	g := got[Key{"pre_tool_call", "shell", "g"}]
	if g.Run != nil {
		t.Errorf("a run before since counted: %s", g.Run.Raw)
	}
	if g.Refusal == nil || g.Refusal.Refusal != "not approved" {
		t.Errorf("last refusal %+v, want the 11:00 one", g.Refusal)
	}
	if _, ok := got[Key{"pre_tool_call", "shell", "other"}]; ok {
		t.Error("a hook not asked for was returned")
	}
	got, _, _ = LatestOf(path, time.Time{}, want)
	if r := got[Key{"pre_tool_call", "shell", "g"}].Run; r == nil || r.Time.Hour() != 9 {
		t.Errorf("last run %+v, want the 09:00 one", r)
	}
}

// A follower that read half of a line the writer then took back (disk
// full) reads on from the last whole line, never gluing the fragment to
// the next line.
func TestFollowAfterTruncation(t *testing.T) {
	home := t.TempDir()
	path := Path(home)
	os.MkdirAll(filepath.Dir(path), 0o700)
	line := func(c string) string {
		return `{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"` + c + `"}` + "\n"
	}
	os.WriteFile(path, []byte(line("one")+line("cut")[:30]), 0o600)
	var got []string
	step := 0
	_, err := Follow(path, func(l Line) error { got = append(got, l.Command); return nil }, func() error {
		step++
		switch step {
		case 1: // the writer takes the cut line back and writes the next
			f, _ := os.OpenFile(path, os.O_RDWR, 0)
			f.Truncate(int64(len(line("one"))))
			f.Close()
		case 2:
			f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			f.WriteString(line("two"))
			f.Close()
		default:
			return io.EOF
		}
		return nil
	})
	if err != io.EOF {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "one,two" {
		t.Errorf("followed %q, want one then two", got)
	}
}

// Following a log that does not exist yet picks it up once it appears,
// and a rotation then starts the new file from its first line.
func TestFollowMissingThenRotated(t *testing.T) {
	home := t.TempDir()
	path := Path(home)
	var got []string
	step := 0
	_, err := Follow(path, func(l Line) error { got = append(got, l.Command); return nil }, func() error {
		step++
		switch step {
		case 1:
			return Append(home, rec("first"))
		case 2:
			if err := os.Rename(path, RotatedPath(path)); err != nil {
				return err
			}
			return nil // between the rename and the new file
		case 3:
			if err := Append(home, rec("second")); err != nil {
				return err
			}
			return Append(home, rec("third"))
		}
		return io.EOF
	})
	if err != io.EOF {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "first,second,third" {
		t.Errorf("followed %q", got)
	}
}
