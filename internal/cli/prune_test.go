package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNewCmdPruneAndApprovalsFlags(t *testing.T) {
	if got := parsed(t, newCmdPrune, false, "--dry-run", "--yes", "--json"); !got.DryRun || !got.Yes || !got.JSON {
		t.Errorf("prune options = %+v", *got)
	}
	if got := parsed(t, newCmdPrune, false, "-y"); !got.Yes || got.DryRun {
		t.Errorf("prune -y options = %+v", *got)
	}
	parsed(t, newCmdPrune, true, "extra")
	if got := parsed(t, newCmdApprovals, false, "--json"); !got.JSON {
		t.Errorf("approvals options = %+v", *got)
	}
	parsed(t, newCmdApprovals, true, "extra")
}

const staleConfig = "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n"

// staleHarness has ~/hook.sh configured and approved, and /gone.sh approved
// but no longer configured.
func staleHarness(t *testing.T, tty bool) *cliHarness {
	t.Helper()
	h := newHookHarness(t, staleConfig, tty)
	h.write(t, "shell-hooks-allowlist.json", `{"approvals": [
  {"approved_at": "2026-01-02T03:04:05Z", "command": "/gone.sh", "event": "pre_tool_call"},
  {"approved_at": "2026-01-02T03:04:06Z", "approved_via": "accept", "command": "~/hook.sh", "event": "on_session_start"}
]}`, 0o600)
	return h
}

func TestPruneOffTerminalNeedsYes(t *testing.T) {
	h := staleHarness(t, false)
	before, _ := os.ReadFile(filepath.Join(h.home, "shell-hooks-allowlist.json"))
	if code := h.run("hooks", "prune"); code != ExitUsage || !strings.Contains(h.err.String(), "needs --yes") {
		t.Fatalf("exit %d, stderr %q; want 2 asking for --yes", code, h.err.String())
	}
	after, _ := os.ReadFile(filepath.Join(h.home, "shell-hooks-allowlist.json"))
	if string(after) != string(before) {
		t.Errorf("the allowlist changed without --yes:\n%s", after)
	}
}

func TestPruneAtTerminalAsksAndNoKeepsEverything(t *testing.T) {
	h := staleHarness(t, true)
	h.prompter.confirms = []bool{false}
	if code := h.run("hooks", "prune", "--json"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	if len(h.prompter.asked) != 1 || !strings.Contains(h.prompter.asked[0], "Remove 1 stale") {
		t.Errorf("asked %q", h.prompter.asked)
	}
	var out pruneJSON
	if err := json.Unmarshal(h.out.Bytes(), &out); err != nil || out.Removed != 0 || len(out.Entries) != 0 || out.DryRun {
		t.Errorf("--json after No = %s (%v)", h.out.String(), err)
	}
	if !strings.Contains(h.err.String(), "/gone.sh") {
		t.Errorf("the question did not show the entry (on stderr with --json): %q", h.err.String())
	}
}

func TestPruneYesRemovesOnlyStale(t *testing.T) {
	h := staleHarness(t, false)
	if code := h.run("hooks", "prune", "--yes"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	if !strings.Contains(h.out.String(), "Removed 1 stale allowlist entry:") || !strings.Contains(h.out.String(), "pre_tool_call  /gone.sh") {
		t.Errorf("stdout %q", h.out.String())
	}
	data, _ := os.ReadFile(filepath.Join(h.home, "shell-hooks-allowlist.json"))
	if strings.Contains(string(data), "/gone.sh") || !strings.Contains(string(data), "~/hook.sh") {
		t.Errorf("allowlist after prune:\n%s", data)
	}
}

func TestApprovalsJSON(t *testing.T) {
	h := staleHarness(t, false)
	if code := h.run("hooks", "approvals", "--json"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, h.err.String())
	}
	var out struct {
		Approvals []map[string]any `json:"approvals"`
	}
	if err := json.Unmarshal(h.out.Bytes(), &out); err != nil || len(out.Approvals) != 2 {
		t.Fatalf("%s (%v)", h.out.String(), err)
	}
	gone, kept := out.Approvals[0], out.Approvals[1]
	if gone["stale"] != true || gone["approved_via"] != nil || gone["pinned"] != false || gone["drift"] != "missing" {
		t.Errorf("stale entry = %v", gone)
	}
	if kept["stale"] != false || kept["approved_via"] != "accept" || kept["command"] != "~/hook.sh" {
		t.Errorf("entry in use = %v", kept)
	}
}

// --lock-timeout 0 and -1 parse, and are refused as not positive:
// TestLockTimeoutFlagRefusesNonsense in cmd/hermes.
func TestLockTimeoutFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{{"30", 30 * time.Second, true}, {"1.5", 1500 * time.Millisecond, true}, {"2m", 2 * time.Minute, true},
		{"soon", 0, false}, {"1e300", 0, false}} {
		got, err := parseSeconds(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}
