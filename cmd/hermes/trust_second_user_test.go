//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobodyHome makes a home of the user nobody holding config.yaml and
// scripts, and returns it with a runner of hermes as nobody there (skipped
// when that is impossible: see asNobody).
func nobodyHome(t *testing.T, config string, scripts map[string]string) (string, func(env []string, args ...string) (string, error)) {
	t.Helper()
	home := newHome(t, config, scripts)
	hermesHome := filepath.Join(home, ".hermes")
	cred := asNobody(t, home)
	bin := copyHermes(t, home)
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append([]string{"PATH=/usr/bin:/bin", "HOME=" + home, "HERMES_HOME=" + hermesHome, "NO_COLOR=1"}, env...)
		cmd.Dir = home
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	return home, run
}

// SPEC §13.2 rule 1, the attack of issue 18: an execute-only script (mode
// 111, which its owner cannot read) is approved through every approving
// path of this tool. None may record an approval, since there is no
// sha256 to pin: another user able to replace the file later would have
// their binary run as the victim.
func TestExecuteOnlyScriptIsNeverApproved(t *testing.T) {
	config := "hooks:\n  on_session_start:\n    - command: \"~/.hermes/x.sh\"\n"
	home, run := nobodyHome(t, config, map[string]string{"x.sh": "#!/bin/sh\ntouch \"$HOME/ran\"\n"})
	script := filepath.Join(home, ".hermes", "x.sh")
	if err := os.Chmod(script, 0o111); err != nil {
		t.Fatal(err)
	}
	allowlist := filepath.Join(home, ".hermes", "shell-hooks-allowlist.json")
	attempts := []struct {
		name    string
		env     []string
		args    []string
		failing bool
	}{
		{"--accept-hooks", nil, []string{"--accept-hooks", "hooks", "run-event", "on_session_start"}, false},
		{"HERMES_ACCEPT_HOOKS", []string{"HERMES_ACCEPT_HOOKS=1"}, []string{"hooks", "run-event", "on_session_start"}, false},
		{"accept --yes", nil, []string{"hooks", "accept", "~/.hermes/x.sh", "--yes"}, true},
		{"accept --force", nil, []string{"hooks", "accept", "~/.hermes/x.sh", "--force", "--event", "on_session_start", "--yes"}, true},
	}
	for _, a := range attempts {
		out, err := run(a.env, a.args...)
		if (err != nil) != a.failing {
			t.Errorf("%s: err %v (want failure %v)\n%s", a.name, err, a.failing, out)
		}
		if !strings.Contains(out, "cannot be read") {
			t.Errorf("%s does not say the script cannot be read:\n%s", a.name, out)
		}
		if data, err := os.ReadFile(allowlist); err == nil && strings.Contains(string(data), "x.sh") {
			t.Fatalf("%s recorded an approval of an unreadable script:\n%s", a.name, data)
		}
	}
	// hooks_auto_accept, the last way.
	writeFile(t, filepath.Join(home, ".hermes", "config.yaml"), "hooks_auto_accept: true\n"+config, 0o644)
	if out, _ := run(nil, "hooks", "run-event", "on_session_start"); !strings.Contains(out, "not offered for approval") {
		t.Errorf("hooks_auto_accept:\n%s", out)
	}
	if data, err := os.ReadFile(allowlist); err == nil && strings.Contains(string(data), "x.sh") {
		t.Fatalf("hooks_auto_accept recorded an approval:\n%s", data)
	}
}

// SPEC §13.2 rules 1 and 2: an approval this tool wrote without a sha256
// (accept --force before the script existed) is modified as soon as an
// execute-only file appears there, and the agent's own hashless approval of
// an unreadable file owned by another user is refused by its owner, not by
// a hash that could not be taken.
func TestExecuteOnlyScriptAfterHashlessApproval(t *testing.T) {
	config := "hooks:\n  on_session_start:\n    - command: \"~/.hermes/x.sh\"\n"
	home, run := nobodyHome(t, config, nil)
	if out, err := run(nil, "hooks", "accept", "~/.hermes/x.sh", "--force", "--event", "on_session_start", "--yes"); err != nil {
		t.Fatalf("accept --force with no script: %v\n%s", err, out)
	}
	script := filepath.Join(home, ".hermes", "x.sh")
	writeFile(t, script, "#!/bin/sh\ntouch \"$HOME/ran\"\n", 0o111)
	fi, err := os.Stat(home) // nobody's, as asNobody made it
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if err := os.Chown(script, int(st.Uid), int(st.Gid)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(script, 0o111); err != nil {
		t.Fatal(err)
	}
	out, _ := run(nil, "hooks", "run-event", "on_session_start", "--json")
	if !strings.Contains(out, `"skip_reason": "modified since approval (`) {
		t.Errorf("an execute-only file where a hashless approval pointed is not modified:\n%s", out)
	}
	out, _ = run(nil, "hooks", "list", "--json")
	if !strings.Contains(out, `"trusted": false`) {
		t.Errorf("list trusts it:\n%s", out)
	}

	// The agent's approval (no sha256, no approved_via), the file handed to
	// another user: refused for its owner.
	writeFile(t, filepath.Join(home, ".hermes", "shell-hooks-allowlist.json"),
		`{"approvals": [{"event": "on_session_start", "command": "~/.hermes/x.sh", "approved_at": "2026-11-30T10:00:00Z", "script_mtime_at_approval": null}]}`, 0o644)
	if err := os.Chown(script, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	out, _ = run(nil, "hooks", "run-event", "on_session_start", "--json")
	if !strings.Contains(out, "x.sh is owned by uid 4242, not by you or root") {
		t.Errorf("a foreign unreadable script approved by the agent is not refused for its owner:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, "ran")); err == nil {
		t.Error("the script ran")
	}
	out, _ = run(nil, "hooks", "doctor")
	if !strings.Contains(out, "owned by uid 4242") || strings.Contains(out, "only you (or root) can change") {
		t.Errorf("doctor does not fail its owner:\n%s", out)
	}
}
