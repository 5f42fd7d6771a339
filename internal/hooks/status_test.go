package hooks

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
)

// trustHome is a HERMES_HOME (which is also the user's home, so ~/x.sh is
// a script in it) for tests of approval, drift and pinning.
type trustHome struct {
	t   testing.TB
	dir string
}

var (
	approvedMtime = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	laterMtime    = time.Date(2021, 6, 1, 12, 0, 0, 0, time.UTC)
	earlierMtime  = time.Date(2019, 6, 1, 0, 0, 0, 0, time.UTC)
)

// newTrustHome writes cfg as config.yaml and each script (mode 0755, mtime
// approvedMtime).
func newTrustHome(t testing.TB, cfg string, scripts map[string]string) *trustHome {
	t.Helper()
	h := &trustHome{t: t, dir: t.TempDir()}
	if err := os.WriteFile(filepath.Join(h.dir, "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, body := range scripts {
		h.write(name, body, approvedMtime)
	}
	return h
}

func (h *trustHome) path(name string) string { return filepath.Join(h.dir, name) }

// write replaces a script's bytes and sets its mtime.
func (h *trustHome) write(name, body string, mtime time.Time) {
	h.t.Helper()
	if err := os.WriteFile(h.path(name), []byte(body), 0o755); err != nil {
		h.t.Fatal(err)
	}
	h.touch(name, mtime)
}

func (h *trustHome) touch(name string, mtime time.Time) {
	h.t.Helper()
	if err := os.Chtimes(h.path(name), mtime, mtime); err != nil {
		h.t.Fatal(err)
	}
}

// load is what one invocation of hermes sees: a fresh Setup (and with it a
// fresh fingerprint cache) and the allowlist as it is now.
func (h *trustHome) load() (*Setup, *allowlist.List) {
	h.t.Helper()
	s, err := Load(config.Request{HomeFlag: h.dir, UserHome: h.dir, Env: config.MapEnv(nil)})
	if err != nil {
		h.t.Fatal(err)
	}
	if d := s.Diagnostics(); len(d) > 0 {
		h.t.Fatalf("test config has diagnostics: %v", d)
	}
	list, warnings, err := s.Store.Read()
	if err != nil || len(warnings) > 0 {
		h.t.Fatalf("reading the allowlist: %v %q", err, warnings)
	}
	return s, list
}

// approveAll approves every configured hook as `hermes hooks accept --all`.
func (h *trustHome) approveAll() {
	h.t.Helper()
	s, list := h.load()
	if _, _, err := s.Approve(s.ShellHooks(list), allowlist.ViaAccept, time.Now()); err != nil {
		h.t.Fatal(err)
	}
}

// writeAllowlist replaces the allowlist with raw JSON (as the agent writes it).
func (h *trustHome) writeAllowlist(raw string) {
	h.t.Helper()
	if err := os.WriteFile(filepath.Join(h.dir, "shell-hooks-allowlist.json"), []byte(raw), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

// hook inspects the one configured hook whose command is cmd.
func (h *trustHome) hook(cmd string) ShellHook {
	h.t.Helper()
	s, list := h.load()
	for _, sh := range s.ShellHooks(list) {
		if sh.Command == cmd {
			return sh
		}
	}
	h.t.Fatalf("no hook %q configured", cmd)
	return ShellHook{}
}

const hookV1 = "#!/bin/sh\necho v1\n"

// Drift through Inspect, the way list, doctor and run-event see it, for
// approvals this tool made (with a sha256).
func TestInspectDriftPinned(t *testing.T) {
	tests := []struct {
		name        string
		change      func(h *trustHome)
		pin         bool
		wantDrift   allowlist.Drift
		wantTrusted bool
	}{
		{"untouched", func(*trustHome) {}, true, allowlist.DriftUnchanged, true},
		{"touch: new mtime, same bytes", func(h *trustHome) { h.touch("hook.sh", laterMtime) }, true, allowlist.DriftTouched, true},
		{"touch to an earlier time", func(h *trustHome) { h.touch("hook.sh", earlierMtime) }, true, allowlist.DriftTouched, true},
		{"checkout: rewritten with identical bytes", func(h *trustHome) { h.write("hook.sh", hookV1, laterMtime) }, true, allowlist.DriftTouched, true},
		{"edit", func(h *trustHome) { h.write("hook.sh", "#!/bin/sh\necho v2\n", laterMtime) }, true, allowlist.DriftModified, false},
		{"edit with the mtime put back", func(h *trustHome) { h.write("hook.sh", "#!/bin/sh\necho v2\n", approvedMtime) }, true, allowlist.DriftModified, false},
		{"edit, hooks_pin_scripts false", func(h *trustHome) { h.write("hook.sh", "#!/bin/sh\necho v2\n", laterMtime) }, false, allowlist.DriftModified, true},
		// A pinned script that cannot be hashed now is not trusted (§13.2).
		{"deleted", func(h *trustHome) {
			if err := os.Remove(h.path("hook.sh")); err != nil {
				t.Fatal(err)
			}
		}, true, allowlist.DriftMissing, false},
		{"replaced by an execute-only file", func(h *trustHome) {
			h.write("hook.sh", "#!/bin/sh\necho v2\n", laterMtime)
			if err := os.Chmod(h.path("hook.sh"), 0o111); err != nil {
				t.Fatal(err)
			}
		}, true, allowlist.DriftMissing, false},
		{"deleted, hooks_pin_scripts false", func(h *trustHome) {
			if err := os.Remove(h.path("hook.sh")); err != nil {
				t.Fatal(err)
			}
		}, false, allowlist.DriftMissing, true},
		{"replaced by a folder", func(h *trustHome) {
			if err := os.Remove(h.path("hook.sh")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(h.path("hook.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, true, allowlist.DriftMissing, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.name, "execute-only") && os.Geteuid() == 0 {
				t.Skip("root reads an execute-only file; the scenario run_event_trust_execute_only runs it as nobody")
			}
			cfg := "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n"
			if !tt.pin {
				cfg = "hooks_pin_scripts: false\n" + cfg
			}
			h := newTrustHome(t, cfg, map[string]string{"hook.sh": hookV1})
			h.approveAll()
			tt.change(h)
			got := h.hook("~/hook.sh")
			if !got.Approved {
				t.Fatal("not approved")
			}
			if got.Drift != tt.wantDrift || got.Allowed() != tt.wantTrusted {
				t.Errorf("drift %q trusted %v, want %q %v", got.Drift, got.Allowed(), tt.wantDrift, tt.wantTrusted)
			}
			if got.Pinned != tt.pin {
				t.Errorf("Pinned = %v, want %v", got.Pinned, tt.pin)
			}
			if got.Blocked() == tt.wantTrusted {
				t.Errorf("Blocked() = %v with trusted %v", got.Blocked(), got.Allowed())
			}
		})
	}
}

// Approvals written by the Python agent have no sha256: drift by mtime alone,
// and pinning never withdraws them.
func TestInspectDriftAgentEntry(t *testing.T) {
	tests := []struct {
		name      string
		mtime     string // script_mtime_at_approval as the agent wrote it
		scriptAt  time.Time
		edit      bool
		wantDrift allowlist.Drift
	}{
		{"same mtime", `"2020-01-01T00:00:00"`, approvedMtime, false, allowlist.DriftUnchanged},
		{"same mtime as a number", `1577836800.0`, approvedMtime, false, allowlist.DriftUnchanged},
		{"later mtime, same bytes", `"2020-01-01T00:00:00"`, laterMtime, false, allowlist.DriftModified},
		{"edited", `"2020-01-01T00:00:00"`, laterMtime, true, allowlist.DriftModified},
		{"earlier mtime", `"2020-01-01T00:00:00"`, earlierMtime, false, allowlist.DriftUnknown},
		{"edited, mtime put back: invisible without a hash", `"2020-01-01T00:00:00"`, approvedMtime, true, allowlist.DriftUnchanged},
		{"no mtime recorded", `null`, approvedMtime, false, allowlist.DriftUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTrustHome(t, "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n",
				map[string]string{"hook.sh": hookV1})
			h.writeAllowlist(`{"approvals": [{"approved_at": "2020-01-02T00:00:00.123456", "command": "~/hook.sh",
				"event": "on_session_start", "script_mtime_at_approval": ` + tt.mtime + `}]}`)
			body := hookV1
			if tt.edit {
				body = "#!/bin/sh\necho edited\n"
			}
			h.write("hook.sh", body, tt.scriptAt)
			got := h.hook("~/hook.sh")
			if got.Drift != tt.wantDrift {
				t.Errorf("drift %q, want %q", got.Drift, tt.wantDrift)
			}
			if got.Pinned || !got.Allowed() || got.Blocked() {
				t.Errorf("agent entry: pinned %v trusted %v blocked %v, want unpinned, trusted", got.Pinned, got.Allowed(), got.Blocked())
			}
		})
	}
}

func TestInspectUnapprovedHasNoDrift(t *testing.T) {
	h := newTrustHome(t, "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n", map[string]string{"hook.sh": hookV1})
	got := h.hook("~/hook.sh")
	if got.Approved || got.Drift != "" || got.Allowed() || got.Pinned {
		t.Errorf("unapproved: approved %v drift %q trusted %v pinned %v", got.Approved, got.Drift, got.Allowed(), got.Pinned)
	}
}

// An approved command that cannot be tokenised has no script: its drift is
// missing, not modified (an empty hash is not a changed one), and a pinned
// approval of it is not trusted (nothing can be hashed).
func TestInspectUnparseableApprovedCommand(t *testing.T) {
	const cmd = `~/hook.sh "unbalanced`
	h := newTrustHome(t, "hooks:\n  on_session_start:\n    - command: '"+cmd+"'\n", nil)
	h.writeAllowlist(`{"approvals": [{"approved_at": "2020-01-02T00:00:00Z", "command": "~/hook.sh \"unbalanced",
		"event": "on_session_start", "script_mtime_at_approval": "2020-01-01T00:00:00Z",
		"script_sha256_at_approval": "` + strings.Repeat("ab", 32) + `"}]}`)
	got := h.hook(cmd)
	if got.ParseErr == nil {
		t.Fatal("command parsed")
	}
	if got.Drift != allowlist.DriftMissing || !got.Blocked() || got.Reason() != SkipUnreadable {
		t.Errorf("drift %q blocked %v reason %q, want missing, blocked, %q", got.Drift, got.Blocked(), got.Reason(), SkipUnreadable)
	}
}

// A bare command word that PATH does not resolve is not read relative to the
// current directory (a file of that name there is not the hook's script).
func TestInspectUnresolvedBareWordIsMissing(t *testing.T) {
	h := newTrustHome(t, "hooks:\n  on_session_start:\n    - command: \"hermes-no-such-hook-xyz\"\n", nil)
	t.Chdir(h.dir)
	h.write("hermes-no-such-hook-xyz", hookV1, approvedMtime)
	h.writeAllowlist(`{"approvals": [{"approved_at": "2020-01-02T00:00:00Z", "command": "hermes-no-such-hook-xyz",
		"event": "on_session_start", "script_mtime_at_approval": "2020-01-01T00:00:00Z"}]}`)
	if got := h.hook("hermes-no-such-hook-xyz"); got.Drift != allowlist.DriftMissing {
		t.Errorf("drift %q, want missing", got.Drift)
	}
}

// Drift is computed once per script per invocation: hooks sharing a script
// see one reading of it, even if it changes while the command runs.
func TestInspectSharedScriptReadOnce(t *testing.T) {
	h := newTrustHome(t, `hooks:
  on_session_start:
    - command: "~/hook.sh one"
  on_session_end:
    - command: "~/hook.sh two"
`, map[string]string{"hook.sh": hookV1})
	h.approveAll()
	s, list := h.load()
	specs := s.Parsed.Specs
	first := s.Inspect(specs[0], list)
	h.write("hook.sh", "#!/bin/sh\necho v2\n", laterMtime)
	second := s.Inspect(specs[1], list)
	if first.Drift != allowlist.DriftUnchanged || second.Drift != allowlist.DriftUnchanged {
		t.Errorf("one invocation: drifts %q and %q, want both unchanged (one reading)", first.Drift, second.Drift)
	}
	if first.Fingerprint.SHA256 != second.Fingerprint.SHA256 {
		t.Error("the two hooks saw different readings of their shared script")
	}
	// The next invocation reads it afresh.
	for _, hk := range []string{"~/hook.sh one", "~/hook.sh two"} {
		if got := h.hook(hk); got.Drift != allowlist.DriftModified {
			t.Errorf("%s: next invocation drift %q, want modified", hk, got.Drift)
		}
	}
}

// Approve records the hash and mtime of the script as it is, and keeps a
// 0600 snapshot of it (not of scripts over 1 MiB).
func TestApproveRecordsFingerprintAndSnapshot(t *testing.T) {
	big := "#!/bin/sh\n#" + strings.Repeat("x", allowlist.MaxSnapshot) + "\n"
	h := newTrustHome(t, `hooks:
  on_session_start:
    - command: "~/hook.sh"
    - command: "~/big.sh"
`, map[string]string{"hook.sh": hookV1, "big.sh": big})
	h.approveAll()
	s, list := h.load()
	e, ok := list.Find("on_session_start", "~/hook.sh")
	if !ok {
		t.Fatal("not recorded")
	}
	fp := allowlist.NewFingerprinter().Of(h.path("hook.sh"))
	if e.ScriptSHA256 != fp.SHA256 || e.ScriptMtime == nil || *e.ScriptMtime != "2020-01-01T00:00:00Z" || e.ApprovedVia != allowlist.ViaAccept {
		t.Errorf("entry %+v, want sha %s mtime 2020-01-01T00:00:00Z via accept", e, fp.SHA256)
	}
	snap, err := allowlist.SnapshotPath(s.Loc.Home, e.ScriptSHA256)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(snap)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("snapshot mode %v, want 0600", fi.Mode().Perm())
	}
	if data, _ := os.ReadFile(snap); string(data) != hookV1 {
		t.Errorf("snapshot holds %q", data)
	}
	eb, _ := list.Find("on_session_start", "~/big.sh")
	if eb.ScriptSHA256 == "" {
		t.Error("a big script is pinned by hash all the same")
	}
	if p, _ := allowlist.SnapshotPath(s.Loc.Home, eb.ScriptSHA256); fileExists(p) {
		t.Error("a script over 1 MiB was snapshotted")
	}
}

// ApprovePinned records nothing when a script's hash is not the one asked
// for, and records the reading it checked when it is.
func TestApprovePinned(t *testing.T) {
	h := newTrustHome(t, "hooks:\n  on_session_start:\n    - command: \"~/hook.sh\"\n", map[string]string{"hook.sh": hookV1})
	s, list := h.load()
	want := allowlist.NewFingerprinter().Of(h.path("hook.sh")).SHA256
	wrong := strings.Repeat("0", 64)

	_, _, err := s.ApprovePinned(s.ShellHooks(list), allowlist.ViaAccept, time.Now(), wrong)
	if !errors.Is(err, ErrHashMismatch) || !strings.Contains(err.Error(), wrong) || !strings.Contains(err.Error(), want) {
		t.Fatalf("mismatch error %v, want one naming %s and %s", err, wrong, want)
	}
	if fileExists(s.Store.Path) || fileExists(filepath.Join(s.Loc.Home, allowlist.SnapshotDirName)) {
		t.Error("a mismatch wrote the allowlist or a snapshot")
	}

	entries, _, err := s.ApprovePinned(s.ShellHooks(list), allowlist.ViaAccept, time.Now(), want)
	if err != nil || len(entries) != 1 || entries[0].ScriptSHA256 != want {
		t.Fatalf("match: %v %+v", err, entries)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestShellHooksInParallelAsInOrder: a config long enough to be inspected
// on several goroutines gives the hooks in config order, each as Inspect
// alone sees it (approved or not, scripts missing, modified or fine).
func TestShellHooksInParallelAsInOrder(t *testing.T) {
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	const n = 4 * parallelInspectMin
	for i := range n {
		fmt.Fprintf(&cfg, "    - command: \"~/s%d.sh --n %d\"\n", i%7, i)
	}
	scripts := map[string]string{}
	for i := range 5 { // s5.sh and s6.sh are missing
		scripts[fmt.Sprintf("s%d.sh", i)] = fmt.Sprintf("#!/bin/sh\necho %d\n", i)
	}
	h := newTrustHome(t, cfg.String(), scripts)
	h.approveAll()
	h.write("s1.sh", "#!/bin/sh\necho changed\n", approvedMtime.Add(time.Hour))
	s, list := h.load()
	got := s.ShellHooks(list)
	serial, _ := h.load()
	if len(got) != n {
		t.Fatalf("%d hooks, want %d", len(got), n)
	}
	for i, spec := range serial.Parsed.Specs {
		want := serial.Inspect(spec, list)
		if g := got[i]; g.Command != want.Command || g.Approved != want.Approved || g.Drift != want.Drift ||
			g.Allowed() != want.Allowed() || (g.ExecErr == nil) != (want.ExecErr == nil) || g.Script != want.Script {
			t.Errorf("hook %d: %+v\nwant %+v", i, g, want)
		}
	}
}

// TestShellHooksInParallelAfterApprove: a list whose index an Approve
// dropped (a replaced entry) is searched from several goroutines without a
// race (run with -race).
func TestShellHooksInParallelAfterApprove(t *testing.T) {
	var cfg strings.Builder
	cfg.WriteString("hooks:\n  pre_tool_call:\n")
	for i := range 2 * parallelInspectMin {
		fmt.Fprintf(&cfg, "    - command: \"~/s.sh --n %d\"\n", i)
	}
	h := newTrustHome(t, cfg.String(), map[string]string{"s.sh": "#!/bin/sh\n"})
	h.approveAll()
	s, list := h.load()
	again := list.Approvals[0]
	again.ApprovedAt = "2026-11-30T00:00:00Z"
	list.Approve(again) // replaces an entry: the index is rebuilt on next use
	for i, sh := range s.ShellHooks(list) {
		if !sh.Approved {
			t.Errorf("hook %d not approved", i)
		}
	}
}
