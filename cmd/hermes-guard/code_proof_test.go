package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// protectCode approves the wrapped form of argv as `hermes hooks accept`
// does since SPEC §23: with the code of the inner command, found with the
// PATH, HOME and HERMES_HOME the agent gives the guard. flags go before
// "--" (--fail-closed, --dialect claude, --project-dir DIR).
func (l *lab) protectCode(event string, flags []string, argv ...string) []string {
	l.t.Helper()
	wrapped := append(append(append([]string{guardBin, "--event", event}, flags...), "--"), argv...)
	inv, err := guard.Parse(wrapped)
	if err != nil {
		l.t.Fatal(err)
	}
	command := shell.Join(wrapped)
	h := guard.Hook(inv, event, command, l.home, l.hh)
	h.CodeEnv.PATH = "/usr/bin:/bin"
	v := trust.Decide(nil, h, guard.Settings)
	e := v.NewApproval(event, command, allowlist.ViaAccept, time.Now())
	if _, err := allowlist.Open(l.hh).Update(func(list *allowlist.List) error { list.Approve(e); return nil }); err != nil {
		l.t.Fatal(err)
	}
	return wrapped
}

// asNobody runs a shell command as the user nobody (the attacker).
func asNobody(t *testing.T, script string) {
	t.Helper()
	out, err := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sh", "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

func lastAudit(t *testing.T, l *lab) string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(l.hh, "logs", "hooks.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return lines[len(lines)-1]
}

// SPEC §23's proof, through the agent's own runner on protected hooks.
func TestCodeAttacks(t *testing.T) {
	l := newLab(t)
	ran := filepath.Join(l.dir, "ran")
	evil := "touch " + ran + "\n"
	fc := []string{"--fail-closed"}
	refused := func(t *testing.T, r runnerResult) {
		t.Helper()
		if _, err := os.Stat(ran); err == nil {
			t.Fatal("the attacker's code ran through the guard")
		}
		if r.ReturnCode != 2 || !strings.Contains(string(r.Answer), "refused by hermes") {
			t.Fatalf("returncode %d, answer %s, stderr %q: want a fail-closed refusal", r.ReturnCode, r.Answer, r.Stderr)
		}
	}

	t.Run("foreign program before a .sh argument, rewritten", func(t *testing.T) {
		l.t = t
		if os.Geteuid() != 0 {
			t.Skip("needs root to act as another user")
		}
		os.Remove(ran)
		tool := l.script("tool", "cat >/dev/null\nexit 0\n")
		rules := l.script("rules.sh", "deny\n")
		wrapped := l.protectCode("pre_tool_call", fc, tool, rules)
		if r := l.run("pre_tool_call", wrapped, payload, 10); r.ReturnCode != 0 {
			t.Fatalf("the approved hook did not run: %+v", r)
		}
		if err := os.Chown(tool, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(l.dir), 0o755); err != nil { // let nobody reach it
			t.Fatal(err)
		}
		asNobody(t, fmt.Sprintf("printf '%%s' '%s' >> %s", evil, tool))
		refused(t, l.run("pre_tool_call", wrapped, payload, 10))
	})

	for _, form := range []string{`$HOME/x.sh`, `~/x.sh`} {
		t.Run("sh -c '"+form+"', rewritten", func(t *testing.T) {
			l.t = t
			os.Remove(ran)
			x := filepath.Join(l.home, "x.sh")
			if err := os.WriteFile(x, []byte("#!/bin/sh\ncat >/dev/null\necho ok\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			wrapped := l.protectCode("pre_tool_call", fc, "sh", "-c", form)
			if r := l.run("pre_tool_call", wrapped, payload, 10); r.ReturnCode != 0 || r.Stdout != "ok\n" {
				t.Fatalf("the approved hook did not run: %+v", r)
			}
			appendFile(t, x, evil)
			refused(t, l.run("pre_tool_call", wrapped, payload, 10))
		})
	}

	t.Run("cd project && ./x.sh from a subfolder", func(t *testing.T) {
		l.t = t
		os.Remove(ran)
		proj := filepath.Join(l.dir, "proj")
		sub := filepath.Join(proj, "sub")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{proj, sub} {
			if err := os.WriteFile(filepath.Join(d, "x.sh"), []byte("#!/bin/sh\ncat >/dev/null\necho "+filepath.Base(d)+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		wrapped := l.protectCode("pre_tool_call", []string{"--fail-closed", "--dialect", "claude", "--project-dir", proj},
			"sh", "-c", `cd "$CLAUDE_PROJECT_DIR" && ./x.sh`)
		p := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "cwd": "` + sub + `"}`
		if r := l.run("pre_tool_call", wrapped, p, 10); r.ReturnCode != 0 {
			t.Fatalf("the approved hook did not run: %+v", r)
		}
		// The subfolder's file is not the code: changing it changes nothing.
		appendFile(t, filepath.Join(sub, "x.sh"), evil)
		if r := l.run("pre_tool_call", wrapped, p, 10); r.ReturnCode != 0 {
			t.Fatalf("a change of the subfolder's x.sh refused the hook: %+v", r)
		}
		appendFile(t, filepath.Join(proj, "x.sh"), evil)
		refused(t, l.run("pre_tool_call", wrapped, p, 10))
	})

	t.Run("a script rewriting itself while it runs", func(t *testing.T) {
		l.t = t
		self := l.script("self.sh", "cat >/dev/null\necho '# again' >> \"$0\"\n")
		wrapped := l.protectCode("pre_tool_call", fc, self)
		before := l.auditLines()
		if r := l.run("pre_tool_call", wrapped, payload, 10); r.ReturnCode != 0 || !strings.Contains(r.Stderr, "changed while hook") {
			t.Fatalf("first run: %+v", r)
		}
		line := l.waitAuditLines(before + 1)
		for _, want := range []string{`"changed_during_run":true`, `"sha256_before":"`, `"sha256_after":"`} {
			if !strings.Contains(line, want) {
				t.Errorf("audit line lacks %s: %s", want, line)
			}
		}
		r := l.run("pre_tool_call", wrapped, payload, 10)
		if r.ReturnCode != 2 || !strings.Contains(r.Stderr, "modified since approval") {
			t.Fatalf("the next call was not refused: %+v", r)
		}
	})

	t.Run("a Claude Code inline pipeline blocks", func(t *testing.T) {
		l.t = t
		if _, err := exec.LookPath("jq"); err != nil {
			t.Skip("no jq")
		}
		inline := `jq -r '.tool_input.command' | grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }; exit 0`
		wrapped := l.protectCode("pre_tool_call", []string{"--fail-closed", "--dialect", "claude"}, "sh", "-c", inline)
		list, _, _ := allowlist.Open(l.hh).Read()
		if e, _ := list.Find("pre_tool_call", shell.Join(wrapped)); e.Unpinnable != "" || len(e.Code) == 0 {
			t.Fatalf("the inline pipeline was not approved with its code: %+v", e)
		}
		rm := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}}`
		if r := l.run("pre_tool_call", wrapped, rm, 10); r.ReturnCode != 2 || !strings.Contains(string(r.Answer), "no rm -rf") {
			t.Fatalf("rm -rf not blocked: %+v", r)
		}
		if r := l.run("pre_tool_call", wrapped, payload, 10); r.ReturnCode != 0 {
			t.Fatalf("ls blocked: %+v", r)
		}
	})

	t.Run("an allowlist someone else can write", func(t *testing.T) {
		l.t = t
		x := l.script("home.sh", "exit 0\n")
		wrapped := l.protectCode("pre_tool_call", fc, x)
		path := allowlist.Open(l.hh).Path
		if err := os.Chmod(path, 0o666); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(path, 0o600)
		r := l.run("pre_tool_call", wrapped, payload, 10)
		if r.ReturnCode != 2 || !strings.Contains(r.Stderr, "someone else can change what the guard decides on: "+path) {
			t.Fatalf("a world-writable allowlist was decided on: %+v", r)
		}
	})

	t.Run("an approval without a pin", func(t *testing.T) {
		l.t = t
		x := l.script("nopin.sh", "exit 0\n")
		wrapped := []string{guardBin, "--event", "pre_tool_call", "--fail-closed", "--", x}
		e := allowlist.NewEntry("pre_tool_call", shell.Join(wrapped), "", allowlist.Fingerprint{Err: allowlist.ErrNoScript}, time.Now())
		if _, err := allowlist.Open(l.hh).Update(func(list *allowlist.List) error { list.Approve(e); return nil }); err != nil {
			t.Fatal(err)
		}
		r := l.run("pre_tool_call", wrapped, payload, 10)
		if r.ReturnCode != 2 || !strings.Contains(r.Stderr, "approved without a pin: approve it with hermes hooks accept") {
			t.Fatalf("an unpinned approval ran or was refused for another reason: %+v", r)
		}
	})
}

// SPEC §23: a compiled program renamed over by another version in a tight
// loop while the agent calls the guard; the other version never runs.
func TestCompiledProgramSwappedNeverRuns(t *testing.T) {
	l := newLab(t)
	good, bad := filepath.Join(l.dir, "v1"), filepath.Join(l.dir, "v2")
	copyFile(t, "/bin/true", good)
	copyFile(t, "/bin/false", bad)
	prog := filepath.Join(l.dir, "prog")
	copyFile(t, good, prog)
	wrapped := l.protectCode("pre_tool_call", []string{"--fail-closed"}, prog)

	stop := swapping(prog, good, bad)
	counts := map[int]int{}
	for i := 0; i < 40; i++ {
		counts[l.run("pre_tool_call", wrapped, payload, 10).ReturnCode]++
	}
	stop()
	if counts[1] != 0 {
		t.Fatalf("the other version ran %d times (exit codes %v)", counts[1], counts)
	}
	if counts[0] == 0 || counts[2] == 0 {
		t.Logf("exit codes %v: the race did not hit both outcomes this time", counts)
	}
}

// SPEC §25: a compiled program swapped, in a tight loop, between two
// versions both approved (as hermes hooks edit leaves them for a moment)
// while the agent calls the guard: every call runs one of them, none is
// refused because the bytes changed between the decision and the start.
func TestCompiledProgramSwappedBetweenApprovedVersions(t *testing.T) {
	l := newLab(t)
	one, two := filepath.Join(l.dir, "v1"), filepath.Join(l.dir, "v2")
	copyFile(t, "/bin/true", one)
	copyFile(t, "/bin/true", two)
	f, err := os.OpenFile(two, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("another version")) // past the ELF's end: it still runs
	f.Close()
	prog := filepath.Join(l.dir, "prog")
	copyFile(t, two, prog)
	l.protectCode("pre_tool_call", []string{"--fail-closed"}, prog) // approves v2
	copyFile(t, one, prog)
	wrapped := []string{guardBin, "--event", "pre_tool_call", "--fail-closed", "--", prog}
	inv, err := guard.Parse(wrapped)
	if err != nil {
		t.Fatal(err)
	}
	h := guard.Hook(inv, "pre_tool_call", shell.Join(wrapped), l.home, l.hh)
	h.CodeEnv.PATH = "/usr/bin:/bin"
	v := trust.Decide(nil, h, guard.Settings)
	e := v.NewApproval("pre_tool_call", shell.Join(wrapped), "edit", time.Now())
	if _, err := allowlist.Open(l.hh).Update(func(list *allowlist.List) error { list.Stage(e); return nil }); err != nil {
		t.Fatal(err)
	}

	stop := swapping(prog, one, two)
	counts := map[int]int{}
	var refusal string
	for i := 0; i < 40; i++ {
		r := l.run("pre_tool_call", wrapped, payload, 10)
		counts[r.ReturnCode]++
		if r.ReturnCode != 0 {
			refusal = r.Stderr
		}
	}
	stop()
	if counts[0] != 40 {
		t.Fatalf("exit codes %v over 40 calls, want every call run; last refusal: %s", counts, refusal)
	}
}

// swapping renames a and b over prog in turn, in a tight loop, until the
// function it returns is called.
func swapping(prog, a, b string) (stop func()) {
	var done atomic.Bool
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tmp := prog + ".tmp"
		for i := 0; !done.Load(); i++ {
			src := a
			if i%2 == 0 {
				src = b
			}
			os.Remove(tmp)
			if os.Link(src, tmp) == nil {
				os.Rename(tmp, prog)
			}
		}
	}()
	return func() { done.Store(true); <-stopped }
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
}
