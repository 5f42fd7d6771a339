package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Faults and big inputs (SPEC §22), with the real binary: answers and
// payloads large enough to be long work, interrupts during it.

// numbersAnswer is a block answer padded with numbers to size bytes.
func numbersAnswer(size int) []byte {
	head, tail := `{"decision": "block", "reason": "read to the end", "pad": [`, `0]}`
	n := (size - len(head) - len(tail)) / len("1.5e3,")
	return []byte(head + strings.Repeat("1.5e3,", n) + tail)
}

// TestStressAnswerOfNumbers: a hook answering 1 MiB of numbers (the most
// that is kept) is read to its end within its timeout: its block holds,
// not a timeout. The decoder copied the rest of the input at every number,
// so this answer took 111 s and the parse was not counted against the
// hook's time.
func TestStressAnswerOfNumbers(t *testing.T) {
	h := newStressHome(t, buildHermes(t))
	answer := filepath.Join(h.root, "answer.json")
	if err := os.WriteFile(answer, numbersAnswer(1<<20-1), 0o644); err != nil {
		t.Fatal(err)
	}
	h.writeConfig("pre_tool_call", 10, h.writeScript("numbers.sh", "cat "+answer+"\n"))
	r := h.run("--accept-hooks", "hooks", "run-event", "pre_tool_call", "--payload", `{"tool_name": "terminal"}`, "--json", "--exit-code")
	var doc struct {
		Hooks []struct {
			TimedOut        bool    `json:"timed_out"`
			StdoutTruncated bool    `json:"stdout_truncated"`
			Elapsed         float64 `json:"elapsed_seconds"`
		}
		Outcome map[string]any
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &doc); err != nil || len(doc.Hooks) != 1 {
		t.Fatalf("run-event exited %d (%v):\n%.2000s\n%s", r.code, err, &r.stdout, &r.stderr)
	}
	if r.code != 3 || doc.Hooks[0].TimedOut || doc.Hooks[0].StdoutTruncated || doc.Outcome["action"] != "block" ||
		doc.Outcome["message"] != "read to the end" {
		t.Fatalf("exit %d, timed out %v, truncated %v, outcome %v; want exit 3 and the hook's block:\n%s",
			r.code, doc.Hooks[0].TimedOut, doc.Hooks[0].StdoutTruncated, doc.Outcome, &r.stderr)
	}
	t.Logf("answer of 1 MiB of numbers: read and judged; run-event took %.2f s (the hook %.2f s)", r.elapsed.Seconds(), doc.Hooks[0].Elapsed)
}

// fdPos is the offset of descriptor fd of process pid (Linux's fdinfo).
func fdPos(pid, fd int) (int64, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, fd))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "pos:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// TestStressInterruptLongParse: SIGTERM or SIGINT while run-event parses a
// large payload ends it with exit 130 and nothing written — no approval,
// no snapshot, no audit line, the hook never started — though
// --accept-hooks would have approved and run it. The signal is sent once
// hermes has read the whole payload (its stdin's offset, from /proc, is the
// file's size), so it lands in the parse, not a sleep later. Before, the
// parse ignored the signal (exit 18 s later).
func TestStressInterruptLongParse(t *testing.T) {
	if _, ok := fdPos(os.Getpid(), 0); !ok {
		t.Skip("needs /proc/<pid>/fdinfo to know hermes is in the parse")
	}
	size := stressSize(256<<20, 24<<20)
	h := newStressHome(t, buildHermes(t))
	marker := filepath.Join(h.root, "ran")
	h.writeConfig("pre_tool_call", 0, h.writeScript("guard.sh", "touch "+marker+"\ncat >/dev/null\n"))
	payload := filepath.Join(h.root, "payload.json")
	var b bytes.Buffer
	b.WriteString(`{"tool_name": "terminal", "args": {"command": "ls", "pad": [`)
	for b.Len() < size {
		b.WriteString("1.5e3, true, null, -7, ")
	}
	b.WriteString(`0]}}`)
	if err := os.WriteFile(payload, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b = bytes.Buffer{}

	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		in, err := os.Open(payload)
		if err != nil {
			t.Fatal(err)
		}
		cmd := h.command("--accept-hooks", "hooks", "run-event", "pre_tool_call", "-", "--json", "--exit-code")
		var stdout, stderr bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		// Wait for the event: the payload read to its end.
		read := false
		for !read {
			select {
			case <-done:
				t.Fatalf("%v: hermes exited %d before it was signalled:\n%s", sig, cmd.ProcessState.ExitCode(), &stderr)
			default:
			}
			pos, ok := fdPos(cmd.Process.Pid, 0)
			read = ok && pos >= int64(size)
			if !read {
				time.Sleep(time.Millisecond) // polling /proc, not waiting for time to pass
			}
		}
		sent := time.Now()
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		<-done
		latency := time.Since(sent)
		in.Close()
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("%v during the parse: exit %d, want 130:\n%s", sig, code, &stderr)
		}
		// --json: the error document (SPEC §10.9), nothing of a firing.
		var doc struct{ Error struct{ Code int } }
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil || doc.Error.Code != 130 {
			t.Errorf("%v: stdout %q, want only the error document of exit 130", sig, stdout.String())
		}
		for _, p := range []string{marker, h.allowlistPath(), filepath.Join(h.home, "shell-hooks-snapshots"), filepath.Join(h.home, "logs")} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("%v during the parse: %s exists; nothing may be written or run", sig, p)
			}
		}
		t.Logf("%v while parsing a %d MiB payload: exit %d %.0f ms after the signal", sig, size>>20, cmd.ProcessState.ExitCode(), latency.Seconds()*1000)
	}
}
