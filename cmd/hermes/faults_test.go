package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
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
	size := stressSize(64<<20, 16<<20)
	h := newStressHome(t, buildHermes(t))
	marker := filepath.Join(h.root, "ran")
	h.writeConfig("pre_tool_call", 0, h.writeScript("guard.sh", "touch "+marker+"\ncat >/dev/null\n"))
	payload := filepath.Join(h.root, "payload.json")
	// Written in pieces: the test process's own memory would show in the
	// peak RSS that later tests measure for their children.
	f, err := os.Create(payload)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bw.WriteString(`{"tool_name": "terminal", "args": {"command": "ls", "pad": [`)
	piece := "1.5e3, true, null, -7, "
	for n := 0; n < size; n += len(piece) {
		bw.WriteString(piece)
	}
	bw.WriteString(`0]}}`)
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

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

// mountTmpfs mounts a tmpfs of size bytes on dir for the test (root only).
func mountTmpfs(t *testing.T, dir string, size int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	mount, err := exec.LookPath("mount")
	if err != nil {
		t.Skip("mount not found")
	}
	if out, err := exec.Command(mount, "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0755", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
}

// fill writes to dir until the file system is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("filling %s: %v", dir, err)
			}
			return
		}
	}
}

// TestFaultDiskFullKeepsTheBlock: HERMES_HOME on a real full file system
// (a 512 KiB tmpfs). The approved guard blocks; --accept-hooks cannot
// record the new hook. run-event still exits 3 under --exit-code with the
// guard's block, reports the write error, and the new hook does not run;
// the allowlist is untouched and no temporary file is left. Before, the
// write error turned the block into exit 1.
func TestFaultDiskFullKeepsTheBlock(t *testing.T) {
	h := newStressHome(t, buildHermes(t))
	mountTmpfs(t, h.home, 512<<10)
	guard := h.writeScript("guard.sh", `echo '{"decision": "block", "reason": "stopped by the guard"}'`+"\n")
	marker := filepath.Join(h.root, "new.ran")
	fresh := h.writeScript("new.sh", "touch "+marker+"\n")
	h.writeConfig("pre_tool_call", 0, guard, fresh)
	if r := h.run("hooks", "accept", guard, "--event", "pre_tool_call", "--yes"); r.code != 0 {
		t.Fatalf("accept exited %d:\n%s", r.code, &r.stderr)
	}
	before, err := os.ReadFile(h.allowlistPath())
	if err != nil {
		t.Fatal(err)
	}
	fill(t, h.home)

	r := h.run("--accept-hooks", "hooks", "run-event", "pre_tool_call", "--payload", `{"tool_name": "terminal"}`, "--exit-code", "--json")
	var doc struct {
		Outcome map[string]any
		Errors  []string
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &doc); err != nil {
		t.Fatalf("run-event exited %d, stdout not its document (%v):\n%s\n%s", r.code, err, &r.stdout, &r.stderr)
	}
	if r.code != 3 || doc.Outcome["action"] != "block" || doc.Outcome["message"] != "stopped by the guard" {
		t.Errorf("disk full: exit %d, outcome %v; want exit 3 and the guard's block\n%s", r.code, doc.Outcome, &r.stderr)
	}
	if len(doc.Errors) != 1 || !strings.Contains(doc.Errors[0], "no space left on device") ||
		!strings.Contains(r.stderr.String(), "error: pre_tool_call hook") {
		t.Errorf("the write error is not reported beside the outcome: errors %q\n%s", doc.Errors, &r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the hook whose approval could not be recorded ran")
	}
	if after, err := os.ReadFile(h.allowlistPath()); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the allowlist changed on a full disk (%v)", err)
	}
	if left := h.tempFiles(); len(left) > 0 {
		t.Errorf("temporary files left by the failed write: %q", left)
	}
}

// TestFaultFolderSyncEIO: the real binary under strace, whose fsync of
// HERMES_HOME itself (the folder, after the allowlist's rename) fails with
// EIO. accept exits 1 saying the allowlist was replaced and its folder
// could not be synced — not that saving failed — and the approval is in
// the file.
func TestFaultFolderSyncEIO(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not found (apt-get install strace)")
	}
	h := newStressHome(t, buildHermes(t))
	guard := h.writeScript("guard.sh", "exit 0\n")
	h.writeConfig("pre_tool_call", 0, guard)
	cmd := h.command()
	// -P: only system calls on HERMES_HOME itself, so the first fsync
	// traced is the folder's (the files' fsyncs are on other paths).
	cmd.Args = []string{strace, "-f", "-qq", "-o", "/dev/null", "-P", h.home, "-e", "trace=fsync",
		"-e", "inject=fsync:error=EIO:when=1", h.bin, "hooks", "accept", guard, "--event", "pre_tool_call", "--yes"}
	cmd.Path = strace
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1:\n%s", code, err, &stderr)
	}
	if msg := stderr.String(); !strings.Contains(msg, "shell-hooks-allowlist.json was replaced, but its folder "+h.home+" could not be synced") ||
		!strings.Contains(msg, "input/output error") || strings.Contains(msg, "cannot save") {
		t.Errorf("stderr does not say the file was replaced and the folder not synced:\n%s", msg)
	}
	if e := h.keys(h.readAllowlist())[hookKey{"pre_tool_call", guard}]; e == nil {
		t.Error("the approval is not in the allowlist, though the rename succeeded")
	}
}

// killInRename runs accept of script under strace, which holds the rename
// onto target (the allowlist, or the script's snapshot) for a minute; once
// the temporary file is there (the event), the whole process group is
// SIGKILLed: a write killed between its temp file and its rename.
func (h *stressHome) killInRename(strace, script, target, tempGlob string) {
	h.t.Helper()
	cmd := h.command()
	cmd.Path = strace
	cmd.Args = []string{strace, "-f", "-qq", "-o", "/dev/null", "-P", target, "-e", "trace=rename,renameat,renameat2",
		"-e", "inject=rename,renameat,renameat2:delay_enter=60000000", h.bin, "hooks", "accept", script, "--event", "pre_tool_call", "--yes"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	killGroupOnCleanup(h.t, cmd.Process.Pid)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	for {
		if m, _ := filepath.Glob(tempGlob); len(m) > 0 {
			break
		}
		select {
		case <-done:
			h.t.Fatalf("accept under strace ended (exit %d) before its rename", cmd.ProcessState.ExitCode())
		case <-time.After(time.Millisecond): // polling the folder for the temp file
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	<-done
}

// TestFaultKilledWritesSwept: an accept killed inside its snapshot write,
// and one killed inside its allowlist write, each leave a temporary file;
// once those are older than any live write (a minute, here set back), the
// next write removes both, and the files read as before (SPEC §22). strace
// holds the rename; without it the test is skipped.
func TestFaultKilledWritesSwept(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not found (apt-get install strace)")
	}
	h := newStressHome(t, buildHermes(t))
	cmds := h.writeHooks("hook", 3)
	h.writeConfig("pre_tool_call", 0, cmds...)
	snaps := filepath.Join(h.home, "shell-hooks-snapshots")

	h.killInRename(strace, cmds[0], filepath.Join(snaps, h.sums[cmds[0]]), filepath.Join(snaps, ".*.tmp-*"))
	h.killInRename(strace, cmds[1], h.allowlistPath(), filepath.Join(h.home, ".shell-hooks-allowlist.json.tmp-*"))
	left := h.tempFiles()
	if len(left) != 2 {
		t.Fatalf("temporary files after two killed writes: %q, want one snapshot's and one allowlist's", left)
	}
	old := time.Now().Add(-2 * time.Minute)
	for _, name := range left {
		if err := os.Chtimes(filepath.Join(h.home, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if r := h.run(acceptArgs(cmds[2])...); r.code != 0 {
		t.Fatalf("accept after the kills exited %d:\n%s", r.code, &r.stderr)
	}
	if left := h.tempFiles(); len(left) > 0 {
		t.Errorf("temporary files of killed writes not swept by the next write: %q", left)
	}
	k := hookKey{"pre_tool_call", cmds[2]}
	h.checkKeys("after the sweep", map[hookKey]bool{k: true}, map[hookKey]bool{k: true})
}

// procRchar is the number of bytes process pid has read (Linux's
// /proc/<pid>/io).
func procRchar(pid int) (int64, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// TestStressInterruptLongConfigLoad: SIGTERM while run-event parses a
// config of many hooks (seconds of YAML) ends it with exit 130 and nothing
// written: the load is abandoned, not waited for. The signal is sent once
// hermes has read at least the config's size (/proc/<pid>/io), so it lands
// in the parse.
func TestStressInterruptLongConfigLoad(t *testing.T) {
	if _, ok := procRchar(os.Getpid()); !ok {
		t.Skip("needs /proc/<pid>/io to know hermes is in the parse")
	}
	n := stressSize(200_000, 50_000)
	h := newStressHome(t, buildHermes(t))
	config := filepath.Join(h.home, "config.yaml")
	f, err := os.Create(config)
	if err != nil {
		t.Fatal(err)
	}
	bw := bufio.NewWriter(f)
	bw.WriteString("hooks:\n  on_session_start:\n")
	for i := range n {
		fmt.Fprintf(bw, "    - command: \"/opt/h/hook-%06d.sh --flag\"\n      timeout: 5\n", i)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fi, err := os.Stat(config)
	if err != nil {
		t.Fatal(err)
	}

	cmd := h.command("--accept-hooks", "hooks", "run-event", "on_session_start")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	for read := false; !read; {
		select {
		case <-done:
			t.Fatalf("hermes exited %d before it was signalled:\n%s", cmd.ProcessState.ExitCode(), &stderr)
		case <-time.After(time.Millisecond): // polling /proc for the event
		}
		rchar, ok := procRchar(cmd.Process.Pid)
		read = ok && rchar >= fi.Size()
	}
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-done
	latency := time.Since(sent)
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("SIGTERM while loading a config of %d hooks: exit %d, want 130:\n%s", n, code, &stderr)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
	for _, p := range []string{h.allowlistPath(), filepath.Join(h.home, "logs")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s exists; nothing may be written", p)
		}
	}
	t.Logf("SIGTERM while loading a %.1f MB config of %d hooks: exit %d %.0f ms after the signal",
		float64(fi.Size())/1e6, n, cmd.ProcessState.ExitCode(), latency.Seconds()*1000)
}
