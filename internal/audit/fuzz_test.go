package audit

import (
	"bytes"
	"io"
	"testing"
)

// FuzzReader: whatever the log holds (torn lines, binary, foreign JSON),
// reading never fails or panics, a line returned is one whole line of the
// input that parses again to the same, and every non-blank line is either
// returned or counted as skipped.
func FuzzReader(f *testing.F) {
	f.Add([]byte(`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","command":"c","exit_code":0}` + "\n"))
	f.Add([]byte(`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"shell","parsed":{"action":"modify","args":{"x":NaN}}}` + "\n{\"time\":\"2026-12-01T1\n"))
	f.Add([]byte("garbage\n\n\r\n{}\n[1]\n"))
	f.Add([]byte(`{"time":"2026-12-01T10:00:00Z","event":"e","kind":"gateway","name":"n","status":"refused","signal":-1e400}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := NewReader("log", bytes.NewReader(data))
		lines := 0
		for {
			l, err := rd.Next()
			if err == io.EOF {
				if l, ok := rd.Flush(); ok {
					check(t, data, l)
					lines++
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			check(t, data, l)
			lines++
		}
		want := 0
		for _, s := range bytes.Split(data, []byte{'\n'}) {
			if len(bytes.TrimSpace(s)) > 0 {
				want++
			}
		}
		if lines+rd.Skipped != want {
			t.Errorf("%d lines and %d skipped of %d non-blank", lines, rd.Skipped, want)
		}
	})
}

func check(t *testing.T, data []byte, l Line) {
	t.Helper()
	if bytes.IndexByte(l.Raw, '\n') >= 0 || !bytes.Contains(data, l.Raw) {
		t.Fatalf("line %q is not one line of the input", l.Raw)
	}
	again, err := ParseLine(l.Raw)
	if err != nil || again.Outcome() != l.Outcome() || again.Hook() != l.Hook() {
		t.Fatalf("line %q does not read the same twice: %v", l.Raw, err)
	}
	_ = l.Outcome()
}
