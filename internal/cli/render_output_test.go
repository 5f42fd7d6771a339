package cli

import (
	"strings"
	"testing"
)

// renderOutput is how test and run-event show what a shell hook or a
// gateway handler printed: each stream under its name, cut to 400
// characters, and a note when the runner cut it at 1 MiB.
func TestRenderOutput(t *testing.T) {
	var b strings.Builder
	renderOutput(&b, outputJSON{Stdout: strings.Repeat("x", 401), Stderr: "oops\n", StdoutTruncated: true}, false)
	want := "    stdout:\n      " + strings.Repeat("x", 400) + "… (1 more characters)\n" +
		"      (stdout was longer than 1 MiB: truncated)\n" +
		"    stderr:\n      oops\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	renderOutput(&b, outputJSON{StderrTruncated: true}, false)
	if want := "      (stderr was longer than 1 MiB: truncated)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
