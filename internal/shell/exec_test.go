package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hookScript writes an executable /bin/sh script into a fresh temp dir and
// returns its path and the dir (scripts drop pid files there).
func hookScript(t *testing.T, body string) (path, dir string) {
	t.Helper()
	dir = t.TempDir()
	path = writeFile(t, filepath.Join(dir, "hook.sh"), "#!/bin/sh\n"+body, 0o755)
	return path, dir
}

// envWith is our environment plus DIR, so scripts know where to write.
func envWith(dir string) []string {
	return append(os.Environ(), "DIR="+dir)
}

func TestRunExitCodes(t *testing.T) {
	for _, code := range []int{0, 1, 3, 42, 255} {
		path, _ := hookScript(t, "exit "+strconv.Itoa(code)+"\n")
		res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute})
		if res.Err != "" || res.TimedOut || res.ExitCode == nil || *res.ExitCode != code {
			t.Errorf("exit %d: got %+v", code, res)
		}
	}
}

func TestRunArgvIsNotInterpretedByAShell(t *testing.T) {
	path, _ := hookScript(t, `for a in "$@"; do printf '[%s]' "$a"; done`+"\n")
	res := Exec{}.Run(context.Background(), Request{
		Argv: []string{path, "$HOME", "a b", "*", "x;echo pwned", ""}, Timeout: time.Minute,
	})
	if want := "[$HOME][a b][*][x;echo pwned][]"; res.Stdout != want {
		t.Errorf("stdout = %q, want %q (%+v)", res.Stdout, want, res)
	}
}

func TestRunStdinDelivered(t *testing.T) {
	// Larger than a pipe buffer, so stdin and stdout must flow at once.
	payload := `{"hook_event_name":"pre_tool_call","x":"` + strings.Repeat("é", 200_000) + `"}`
	path, _ := hookScript(t, "cat\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Stdin: []byte(payload), Timeout: time.Minute})
	if res.Stdout != payload || res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("cat got %d bytes back (want %d), result %+v", len(res.Stdout), len(payload), res.Err)
	}
}

func TestRunIgnoredStdinDoesNotBlock(t *testing.T) {
	path, _ := hookScript(t, "echo done\n")
	res := Exec{}.Run(context.Background(), Request{
		Argv: []string{path}, Stdin: make([]byte, 4<<20), Timeout: time.Minute,
	})
	if res.Stdout != "done\n" || res.TimedOut || res.Err != "" {
		t.Errorf("got %+v", res)
	}
}

func TestRunEnvAndDir(t *testing.T) {
	path, dir := hookScript(t, `echo "$HERMES_HOOK|$HERMES_HOOK_EVENT|$HERMES_HOOK_TOOL_NAME|$HERMES_HOME|$(pwd)"`+"\n")
	env := HookEnv([]string{"PATH=" + os.Getenv("PATH"), "HERMES_HOOK=0"}, "/h", "pre_tool_call", "terminal", "")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Env: env, Dir: dir, Timeout: time.Minute})
	realDir, _ := filepath.EvalSymlinks(dir)
	if want := "1|pre_tool_call|terminal|/h|" + realDir + "\n"; res.Stdout != want {
		t.Errorf("stdout = %q, want %q", res.Stdout, want)
	}
}

func TestRunStartFailures(t *testing.T) {
	dir := t.TempDir()
	noExec := writeFile(t, filepath.Join(dir, "noexec.sh"), "#!/bin/sh\n", 0o644)
	noShebang := writeFile(t, filepath.Join(dir, "junk"), "\x7fnot really an ELF\n", 0o755)
	badInterp := writeFile(t, filepath.Join(dir, "bad.sh"), "#!/no/such/interpreter\n", 0o755)
	cases := []struct {
		argv []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing.sh")}, "command not found"},
		{[]string{"hermes-no-such-command-on-path"}, "command not found"},
		{[]string{badInterp}, "interpreter /no/such/interpreter not found"},
		{[]string{noExec}, "command not executable"},
		{[]string{dir}, "command not executable"},
		{[]string{noShebang}, "exec format error"},
		{nil, "empty command"},
	}
	for _, tc := range cases {
		res := Exec{}.Run(context.Background(), Request{Argv: tc.argv, Timeout: time.Minute})
		if res.Err != tc.want || res.ExitCode != nil || res.TimedOut {
			t.Errorf("Run(%q): Err %q, ExitCode %v; want Err %q and no exit code", tc.argv, res.Err, res.ExitCode, tc.want)
		}
	}
}

// A hook that dies of a signal it did not get from us has Python's
// returncode -N, and what it printed first is kept.
func TestRunKilledBySignal(t *testing.T) {
	path, _ := hookScript(t, "echo '{\"action\": \"block\"}'\nkill -TERM $$\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute})
	if res.ExitCode == nil || *res.ExitCode != -15 || res.Err != "" || res.TimedOut {
		t.Errorf("got ExitCode %v Err %q TimedOut %v", res.ExitCode, res.Err, res.TimedOut)
	}
	if res.Stdout != "{\"action\": \"block\"}\n" {
		t.Errorf("stdout %q", res.Stdout)
	}
}

func TestRunDecodesLikePythonTextMode(t *testing.T) {
	path, _ := hookScript(t, `printf 'a\r\nb\rc\342\202\377\376'; printf 'e\r\n' >&2`+"\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute})
	if res.Stdout != "a\nb\nc\ufffd\ufffd\ufffd" || res.Stderr != "e\n" {
		t.Errorf("stdout %q stderr %q", res.Stdout, res.Stderr)
	}
}

func TestRunCapsOutputWithBoundedMemory(t *testing.T) {
	const printed = 50_000_000
	path, _ := hookScript(t, "head -c "+strconv.Itoa(printed)+" /dev/zero | tr '\\0' a\necho small >&2\n")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute})
	runtime.ReadMemStats(&after)

	if len(res.Stdout) != MaxCapture || !res.StdoutTruncated || strings.Trim(res.Stdout, "a") != "" {
		t.Errorf("stdout: %d bytes, truncated %v; want exactly %d 'a's, truncated", len(res.Stdout), res.StdoutTruncated, MaxCapture)
	}
	if res.Stderr != "small\n" || res.StderrTruncated {
		t.Errorf("stderr = %q truncated %v; the stderr cap is independent of stdout's", res.Stderr, res.StderrTruncated)
	}
	if res.ExitCode == nil || *res.ExitCode != 0 {
		t.Errorf("the hook should have run to the end (never blocked on a full pipe): %+v", res.ExitCode)
	}
	// Everything allocated during the run, not just what is live: a runner
	// that buffered the whole output would allocate at least 50 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("the run allocated %d bytes for %d printed; memory must stay bounded", alloc, printed)
	}
}

func TestRunStderrCapIndependent(t *testing.T) {
	path, _ := hookScript(t, "echo out\nhead -c 5000 /dev/zero | tr '\\0' e >&2\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute, MaxOutput: 1000})
	if res.Stdout != "out\n" || res.StdoutTruncated {
		t.Errorf("stdout = %q truncated %v", res.Stdout, res.StdoutTruncated)
	}
	if len(res.Stderr) != 1000 || !res.StderrTruncated {
		t.Errorf("stderr: %d bytes truncated %v; want 1000, truncated", len(res.Stderr), res.StderrTruncated)
	}
}

// stderr keeps its end: the error that made a hook fail is usually the
// last thing it printed, after pages of noise.
func TestRunStderrKeepsItsTail(t *testing.T) {
	path, _ := hookScript(t, "i=0; while [ $i -lt 3000 ]; do echo noise >&2; i=$((i+1)); done; echo 'fatal: the real error' >&2; echo first; seq 1 3000\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute, MaxOutput: 1000})
	if !strings.HasSuffix(res.Stderr, "noise\nfatal: the real error\n") || len(res.Stderr) != 1000 || !res.StderrTruncated {
		t.Errorf("stderr (%d bytes, truncated %v) ends %q; want the last 1000 bytes", len(res.Stderr), res.StderrTruncated, res.Stderr[max(0, len(res.Stderr)-40):])
	}
	if !strings.HasPrefix(res.Stdout, "first\n1\n2\n") || len(res.Stdout) != 1000 || !res.StdoutTruncated {
		t.Errorf("stdout (%d bytes) starts %q; want the first 1000 bytes", len(res.Stdout), res.Stdout[:min(20, len(res.Stdout))])
	}
}

// A script that exists but whose #! names a missing interpreter is not
// "command not found": the message names the interpreter, CR included.
func TestRunMissingInterpreter(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ shebang, want string }{
		{"#!/no/such/interp\n", "interpreter /no/such/interp not found"},
		{"#!/bin/sh\r\necho hi\r\n", "interpreter /bin/sh\r not found"},
		{"#! /nope/python3 -u\n", "interpreter /nope/python3 not found"},
	} {
		path := writeFile(t, filepath.Join(dir, "hook.sh"), tc.shebang, 0o755)
		res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute})
		if res.Err != tc.want {
			t.Errorf("%q: Err = %q, want %q", tc.shebang, res.Err, tc.want)
		}
	}
	res := Exec{}.Run(context.Background(), Request{Argv: []string{filepath.Join(dir, "absent.sh")}, Timeout: time.Minute})
	if res.Err != "command not found" {
		t.Errorf("a missing script: Err = %q, want command not found", res.Err)
	}
}

func TestRunInvalidUTF8Replaced(t *testing.T) {
	path, _ := hookScript(t, `printf '\377ok\342\202\254\n'; printf 'abc\342\202\254' >&2`+"\n")
	res := Exec{}.Run(context.Background(), Request{Argv: []string{path}, Timeout: time.Minute, MaxOutput: 5})
	if res.Stdout != "\uFFFDok" || !res.StdoutTruncated {
		// 5 bytes: \377 o k \342 \202 — the cut € is dropped, \377 replaced.
		t.Errorf("stdout = %q truncated %v; want %q", res.Stdout, res.StdoutTruncated, "\uFFFDok")
	}
	if res.Stderr != "bc€" || !res.StderrTruncated {
		t.Errorf("stderr = %q; want its last 5 bytes", res.Stderr)
	}
}

func TestCaptureText(t *testing.T) {
	cases := []struct {
		max     int
		writes  []string
		want    string
		wantCut bool
	}{
		{10, []string{"hello"}, "hello", false},
		{5, []string{"hel", "lo"}, "hello", false},
		{4, []string{"hel", "lo"}, "hell", true},
		{4, []string{"ab€"}, "ab", true},           // cut inside €
		{5, []string{"ab€x"}, "ab€", true},         // cut right after €
		{3, []string{"\xffab€"}, "\uFFFDab", true}, // invalid byte replaced
		{4, []string{"a\xe2\x82", "x"}, "a\uFFFDx", false},
		{0, []string{"x"}, "", true},
	}
	tails := []struct {
		max     int
		writes  []string
		want    string
		wantCut bool
	}{
		{10, []string{"hello"}, "hello", false},
		{4, []string{"hel", "lo"}, "ello", true},
		{4, []string{"€ab"}, "ab", true}, // cut inside €: its tail bytes go
		{3, []string{"ab", "cd", "ef", "gh", "ij"}, "hij", true},
		{3, []string{"abcdefgh"}, "fgh", true},
		{3, []string{"abc"}, "abc", false},
	}
	for _, tc := range tails {
		c := &capture{max: tc.max, tail: true}
		for _, w := range tc.writes {
			if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v; a capture must accept everything", w, n, err)
			}
			if len(c.buf) > 2*tc.max {
				t.Fatalf("tail capture holds %d bytes; bound is 2×%d", len(c.buf), tc.max)
			}
		}
		if got, cut := c.text(); got != tc.want || cut != tc.wantCut {
			t.Errorf("tail capture(max %d) of %q = %q, %v; want %q, %v", tc.max, tc.writes, got, cut, tc.want, tc.wantCut)
		}
	}
	for _, tc := range cases {
		c := &capture{max: tc.max}
		for _, w := range tc.writes {
			if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
				t.Fatalf("Write(%q) = %d, %v; a capture must accept everything", w, n, err)
			}
		}
		if got, cut := c.text(); got != tc.want || cut != tc.wantCut {
			t.Errorf("capture(max %d) of %q = %q, %v; want %q, %v", tc.max, tc.writes, got, cut, tc.want, tc.wantCut)
		}
	}
}

func TestElapsedSeconds(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want float64
	}{
		{1234567 * time.Microsecond, 1.235},
		{1234400 * time.Microsecond, 1.234},
		{0, 0},
		{30 * time.Second, 30},
	}
	for _, tc := range cases {
		if got := (Result{Elapsed: tc.d}).ElapsedSeconds(); got != tc.want {
			t.Errorf("ElapsedSeconds(%v) = %v, want %v", tc.d, got, tc.want)
		}
	}
}

func TestHookEnv(t *testing.T) {
	base := []string{"PATH=/bin", "HERMES_HOOK=0", "HERMES_HOOK_TOOL_NAME=stale", "HERMES_HOME_X=keep", "HERMES_HOME=/old"}
	baseCopy := append([]string(nil), base...)
	cases := []struct {
		tool, session string
		want          []string
	}{
		{"terminal", "s-1", []string{"PATH=/bin", "HERMES_HOME_X=keep", "HERMES_HOME=/h", "HERMES_HOOK_EVENT=on_x", "HERMES_HOOK_TOOL_NAME=terminal", "HERMES_HOOK_SESSION_ID=s-1", "HERMES_HOOK=1"}},
		{"", "", []string{"PATH=/bin", "HERMES_HOME_X=keep", "HERMES_HOME=/h", "HERMES_HOOK_EVENT=on_x", "HERMES_HOOK=1"}},
	}
	for _, tc := range cases {
		got := HookEnv(base, "/h", "on_x", tc.tool, tc.session)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("HookEnv(tool %q, session %q) =\n%q\nwant\n%q", tc.tool, tc.session, got, tc.want)
		}
	}
	if strings.Join(base, "\n") != strings.Join(baseCopy, "\n") {
		t.Errorf("HookEnv modified its base: %q", base)
	}
}

// BenchmarkRunTrivialHook measures the runner's overhead on a hook that does
// nothing (SPEC §12: run-event may add only a few milliseconds); compare
// with BenchmarkStartTrivialHookDirectly.
func BenchmarkRunTrivialHook(b *testing.B) {
	path := writeFile(b, filepath.Join(b.TempDir(), "hook.sh"), "#!/bin/sh\nexit 0\n", 0o755)
	req := Request{Argv: []string{path}, Stdin: []byte(`{"hook_event_name":"x"}`), Timeout: time.Minute}
	for b.Loop() {
		if res := (Exec{}).Run(context.Background(), req); res.ExitCode == nil {
			b.Fatalf("hook failed: %+v", res)
		}
	}
}

func BenchmarkStartTrivialHookDirectly(b *testing.B) {
	path := writeFile(b, filepath.Join(b.TempDir(), "hook.sh"), "#!/bin/sh\nexit 0\n", 0o755)
	for b.Loop() {
		if err := exec.Command(path).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
