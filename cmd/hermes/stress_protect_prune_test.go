package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// protect racing prune (SPEC §29 item 1): prune read the config before
// protect renamed it, saw protect's new approvals as approving no hook and
// removed them, leaving protected hooks the agent would not register.

// unapproved lists the configured shell hooks that are not approved, as
// list --json reads the config and the allowlist.
func (h *stressHome) unapproved(when string) []string {
	h.t.Helper()
	r := h.run("hooks", "list", "--json")
	var out struct {
		ShellHooks []struct {
			Event, Command string
			Approved       bool
		} `json:"shell_hooks"`
	}
	if err := json.Unmarshal(r.stdout.Bytes(), &out); err != nil || r.code != 0 {
		h.t.Fatalf("%s: list --json exited %d (%v):\n%s", when, r.code, err, &r.stderr)
	}
	var bad []string
	for _, s := range out.ShellHooks {
		if !s.Approved {
			bad = append(bad, s.Command)
		}
	}
	return bad
}

// protectHome is a home with n approved hooks, hermes-guard beside hermes,
// and one stale approval, so prune always has something to remove.
func protectHome(t *testing.T, n int) (*stressHome, []string) {
	bin := buildHermes(t)
	buildGuardBeside(t, bin)
	h := newStressHome(t, bin)
	return h, h.writeHooks("prot", n)
}

func (h *stressHome) resetProtected(cmds []string) {
	h.t.Helper()
	h.writeConfig("pre_tool_call", 0, cmds...)
	h.resetAllowlist(`{"approvals": [{"approved_at": "2026-01-02T03:04:05Z", "command": "/gone/stale.sh", "event": "pre_tool_call"}]}`)
	if r := h.run("hooks", "accept", "--all", "--yes"); r.code != 0 {
		h.t.Fatalf("accept --all exited %d:\n%s", r.code, &r.stderr)
	}
}

// TestFaultPruneDuringProtect: protect is held (strace delays its rename of
// config.yaml) after it wrote the wrapped approvals; prune --yes runs then.
// prune must wait for protect's config lock and judge the renamed config:
// every protected hook stays approved. Before, prune removed the wrapped
// approvals at once.
func TestFaultPruneDuringProtect(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not found (apt-get install strace)")
	}
	h, cmds := protectHome(t, 3)
	h.resetProtected(cmds)
	cmd := h.command()
	cmd.Path = strace
	cmd.Args = []string{strace, "-f", "-qq", "-o", "/dev/null", "-P", h.configPath(), "-e", "trace=rename,renameat,renameat2",
		"-e", "inject=rename,renameat,renameat2:delay_enter=1500000", h.bin, "hooks", "protect", "--all"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var perr bytes.Buffer
	cmd.Stderr = &perr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killGroupOnCleanup(t, cmd.Process.Pid)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	// The event: the wrapped approvals are in the allowlist (protect writes
	// them before it renames the config).
	for {
		data, _ := os.ReadFile(h.allowlistPath())
		if bytes.Contains(data, []byte("hermes-guard")) {
			break
		}
		select {
		case <-done:
			t.Fatalf("protect ended (exit %d) before its approvals were seen:\n%s", cmd.ProcessState.ExitCode(), &perr)
		case <-time.After(time.Millisecond): // polling the allowlist
		}
	}
	pr := h.run("hooks", "prune", "--yes")
	<-done
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("protect exited %d:\n%s", code, &perr)
	}
	if pr.code != 0 {
		t.Fatalf("prune exited %d:\n%s", pr.code, &pr.stderr)
	}
	if bad := h.unapproved("after prune during protect"); len(bad) > 0 {
		t.Errorf("prune during protect left hooks unapproved: %q\nprune said:\n%s", bad, &pr.stdout)
	}
}

// TestStressProtectRacingPrune: protect --all and prune --yes started
// together, 100 times (10 in go test): every configured hook is approved
// after each.
func TestStressProtectRacingPrune(t *testing.T) {
	trials := stressSize(100, 10)
	h, cmds := protectHome(t, 4)
	lost := 0
	for trial := range trials {
		h.resetProtected(cmds)
		rs := h.startAll([][]string{{"hooks", "protect", "--all"}, {"hooks", "prune", "--yes"}})
		for i, r := range rs {
			if r.code != 0 {
				t.Fatalf("trial %d: %s exited %d:\n%s", trial, []string{"protect", "prune"}[i], r.code, &r.stderr)
			}
		}
		if bad := h.unapproved(fmt.Sprintf("trial %d", trial)); len(bad) > 0 {
			lost++
			t.Errorf("trial %d: hooks left unapproved: %s", trial, strings.Join(bad, ", "))
		}
	}
	t.Logf("protect --all racing prune --yes: %d trials, %d lost an approval", trials, lost)
}
