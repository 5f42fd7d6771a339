//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// TestLogFollowStalledAcrossRotations: log --follow is stopped (SIGSTOP)
// while the log rotates twice, then three times (SPEC §29 item 6). After
// two rotations every line is still on disk (the file it was reading, by
// its open descriptor; the rotated one; the log) and all are printed, in
// order; before, the whole rotated file was skipped. After three, the
// lines of the file rotated away in between are gone: the rest is printed
// in order, and stderr says lines were rotated away.
func TestLogFollowStalledAcrossRotations(t *testing.T) {
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	path := audit.Path(hermesHome)
	add := func(gen string, n int, from int) []string {
		t.Helper()
		var cmds []string
		for i := from; i < from+n; i++ {
			c := fmt.Sprintf("~/%s-%02d.sh", gen, i)
			appendRanLine(t, hermesHome, c)
			cmds = append(cmds, c)
		}
		return cmds
	}
	rotate := func() {
		t.Helper()
		if err := os.Rename(path, audit.RotatedPath(path)); err != nil {
			t.Fatal(err)
		}
	}
	want := add("a", 10, 0)
	cmd := hermesCmd(t, home, "hooks", "log", "--follow", "--json")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Signal(syscall.SIGCONT)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var l struct{ Command string }
			_ = json.Unmarshal(sc.Bytes(), &l)
			lines <- l.Command
		}
		close(lines)
	}()
	expect := func(when string, want []string) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for i, w := range want {
			select {
			case got, ok := <-lines:
				if !ok {
					t.Fatalf("%s: log --follow ended before line %d (%s)\n%s", when, i, w, stderr.String())
				}
				if got != w {
					t.Fatalf("%s: line %d is %s, want %s (lines skipped or out of order)\n%s", when, i, got, w, stderr.String())
				}
			case <-deadline:
				t.Fatalf("%s: log --follow never printed line %d (%s)\n%s", when, i, w, stderr.String())
			}
		}
	}
	stop := func() {
		t.Helper()
		if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		// The event: the process is stopped (state T in /proc).
		for {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
			if err != nil {
				t.Fatal(err)
			}
			if f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:])); len(f) > 0 && f[0] == "T" {
				return
			}
			time.Sleep(time.Millisecond) // polling /proc for the stop
		}
	}
	expect("start", want)

	// Two rotations while stopped: nothing is lost.
	stop()
	want = add("a", 5, 10)
	rotate()
	want = append(want, add("b", 10, 0)...)
	rotate()
	want = append(want, add("c", 10, 0)...)
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	expect("after two rotations", want)

	// Three: the "d" file is rotated away unread.
	stop()
	want = add("c", 5, 10)
	rotate()
	add("d", 10, 0)
	rotate()
	want = append(want, add("e", 10, 0)...)
	rotate()
	want = append(want, add("f", 10, 0)...)
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	expect("after three rotations", want)
	// stderr is whole once the process has ended.
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	_ = cmd.Wait()
	if !strings.Contains(stderr.String(), "rotated away") {
		t.Errorf("no word on stderr that lines were rotated away:\n%s", stderr.String())
	}
}
