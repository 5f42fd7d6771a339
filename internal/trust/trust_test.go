package trust

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
)

func script(t *testing.T, body string, mode os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(p, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

var on = Settings{PinScripts: true, StrictModes: false}

func approve(event, command, via string, fp allowlist.Fingerprint) *allowlist.List {
	l := &allowlist.List{}
	l.Approve(allowlist.NewEntry(event, command, via, fp, time.Now()))
	return l
}

func TestDecidePinnedUnchangedIsAllowed(t *testing.T) {
	p := script(t, "#!/bin/sh\necho hi\n", 0o700)
	l := approve("on_session_start", p, allowlist.ViaAccept, allowlist.FingerprintNow(p))
	v := Decide(l, Hook{Event: "on_session_start", Command: p}, on)
	if !v.Allowed() || v.Reason() != "" || v.SHA256() == "" {
		t.Fatalf("allowed=%v reason=%q sha=%q", v.Allowed(), v.Reason(), v.SHA256())
	}
}

func TestDecideModifiedIsBlocked(t *testing.T) {
	p := script(t, "#!/bin/sh\necho hi\n", 0o700)
	l := approve("on_session_start", p, allowlist.ViaAccept, allowlist.FingerprintNow(p))
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho evil\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	v := Decide(l, Hook{Event: "on_session_start", Command: p}, on)
	if v.Allowed() || v.Reason() != SkipModified {
		t.Fatalf("allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

func TestDecideNotApproved(t *testing.T) {
	p := script(t, "#!/bin/sh\n", 0o700)
	v := Decide(nil, Hook{Event: "on_session_start", Command: p}, on)
	if v.Allowed() || v.Reason() != SkipNotApproved {
		t.Fatalf("allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

// The guard judges the inner command's script while the entry is found by
// the wrapped command.
func TestDecideArgvIsJudged(t *testing.T) {
	p := script(t, "#!/bin/sh\n", 0o700)
	wrapped := "/usr/bin/guard --event pre_tool_call -- " + p
	l := approve("pre_tool_call", wrapped, "protect", allowlist.FingerprintNow(p))
	v := Decide(l, Hook{Event: "pre_tool_call", Command: wrapped, Argv: []string{p}}, on)
	if !v.Allowed() || v.Script != p {
		t.Fatalf("allowed=%v script=%q reason=%q", v.Allowed(), v.Script, v.Reason())
	}
}

func TestDecideTildeScriptIsRefused(t *testing.T) {
	v := Decide(nil, Hook{Event: "on_session_start", Command: "python3 ~/x.py", Home: "/home/u"}, on)
	if v.Refusal == "" || !strings.Contains(v.Reason(), "${HOME}/x.py") {
		t.Fatalf("refusal %q", v.Refusal)
	}
}

func TestFindByArgv(t *testing.T) {
	l := &allowlist.List{}
	l.Approve(allowlist.Entry{Event: "pre_tool_call", Command: "~/g --event pre_tool_call -- 'a b'", ApprovedAt: "1"})
	l.Approve(allowlist.Entry{Event: "post_tool_call", Command: "/h/g --event post_tool_call -- x", ApprovedAt: "2"})
	e, ok := FindByArgv(l, "pre_tool_call", []string{"/h/g", "--event", "pre_tool_call", "--", "a b"}, "/h")
	if !ok || e.ApprovedAt != "1" {
		t.Fatalf("found %v %+v", ok, e)
	}
	if _, ok := FindByArgv(l, "post_tool_call", []string{"/h/g", "--event", "pre_tool_call", "--", "a b"}, "/h"); ok {
		t.Fatal("an entry of another event matched")
	}
	if _, ok := FindByArgv(nil, "x", nil, ""); ok {
		t.Fatal("nil list matched")
	}
}

// The guard imports this package: it must stay lean (STYLE.md).
func TestDependenciesStayLean(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"cobra", "viper", "survey", "yaml", "regexp2", "/internal/pyre", "/internal/hooks", "/internal/config"} {
			if strings.Contains(dep, bad) {
				t.Errorf("internal/trust depends on %s", dep)
			}
		}
	}
}

// SPEC §13.2 rule 1: a hashless approval this tool wrote is modified once
// anything is at the path, even something that cannot be hashed.
func TestDecideHashlessOursIsModifiedByAnything(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "later.sh")
	l := approve("on_session_start", p, allowlist.ViaAccept, allowlist.FingerprintNow(p))
	if l.Approvals[0].Pinned() {
		t.Fatal("an approval of nothing recorded a hash")
	}
	v := Decide(l, Hook{Event: "on_session_start", Command: p}, on)
	if !v.Allowed() || v.Present {
		t.Fatalf("nothing there yet: allowed=%v present=%v reason=%q", v.Allowed(), v.Present, v.Reason())
	}
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	v = Decide(l, Hook{Event: "on_session_start", Command: p}, on)
	if v.Allowed() || v.Drift != allowlist.DriftModified || v.Reason() != SkipModified {
		t.Fatalf("a folder there: allowed=%v drift=%s reason=%q", v.Allowed(), v.Drift, v.Reason())
	}
}

// SPEC §13.2 rule 2: the agent's approval (no sha256, no approved_via) of a
// script others can write is not trusted, approved or not, readable or not.
func TestDecideAgentApprovalOwnership(t *testing.T) {
	p := script(t, "#!/bin/sh\n", 0o777)
	l := &allowlist.List{}
	l.Approve(allowlist.Entry{Event: "on_session_start", Command: p, ApprovedAt: "2026-11-30T10:00:00Z"})
	strict := Settings{PinScripts: true, StrictModes: true}
	if err := Now().Paths.Check(filepath.Dir(p)); err != nil {
		t.Skipf("the temporary folder is not safe itself: %v", err)
	}
	v := Decide(l, Hook{Event: "on_session_start", Command: p}, strict)
	if v.Allowed() || !strings.HasPrefix(v.Reason(), UnsafePrefix) || !strings.Contains(v.Reason(), "writable by others") {
		t.Fatalf("allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
	// Not approved: still judged (what a consent would be asked about).
	if v := Decide(nil, Hook{Event: "on_session_start", Command: p}, strict); v.Unsafe == nil {
		t.Fatal("an unapproved world-writable script is not unsafe")
	}
	// Strict modes or pinning off: the rule is off.
	for _, s := range []Settings{{PinScripts: true}, {StrictModes: true}} {
		if v := Decide(l, Hook{Event: "on_session_start", Command: p}, s); !v.Allowed() {
			t.Fatalf("%+v: %q", s, v.Reason())
		}
	}
}

// p0 is a file that exists (Unhashable asks lstat).
func p0(t *testing.T) string { return script(t, "#!/bin/sh\n", 0o700) }

func TestUnhashable(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.sh")
	if why := Unhashable(allowlist.FingerprintNow(missing)); why != "" {
		t.Fatalf("nothing there: %q", why)
	}
	if why := Unhashable(allowlist.FingerprintNow(dir)); !strings.Contains(why, "cannot be read") ||
		!strings.Contains(why, "readable regular file") || strings.Contains(why, "chmod") {
		t.Fatalf("a folder: %q", why)
	}
	denied := allowlist.Fingerprint{Path: p0(t), Err: &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}}
	if why := Unhashable(denied); !strings.Contains(why, "chmod u+r") {
		t.Fatalf("permission denied: %q", why)
	}
	p := script(t, "#!/bin/sh\n", 0o700)
	if why := Unhashable(allowlist.FingerprintNow(p)); why != "" {
		t.Fatalf("a readable script: %q", why)
	}
}

// A hook with no script file by design is judged by its approval alone:
// nothing is hashed or checked, nothing can drift, and without an entry
// for exactly that command it is not approved.
func TestDecideNoScript(t *testing.T) {
	cmd := "/g --event pre_tool_call --dialect claude -- sh -c 'jq . | grep -q rm'"
	argv := []string{"jq", ".", "|", "grep", "-q", "rm"}
	l := approve("pre_tool_call", cmd, allowlist.ViaAccept, allowlist.Fingerprint{Err: allowlist.ErrNoScript})
	v := Decide(l, Hook{Event: "pre_tool_call", Command: cmd, Argv: argv, NoScript: true}, Settings{PinScripts: true, StrictModes: true})
	if !v.Allowed() || !v.NoScript || v.Script != "" || v.SHA256() != "" || v.Drift != allowlist.DriftUnchanged {
		t.Fatalf("allowed=%v noScript=%v script=%q sha=%q drift=%q reason=%q", v.Allowed(), v.NoScript, v.Script, v.SHA256(), v.Drift, v.Reason())
	}
	other := Decide(l, Hook{Event: "pre_tool_call", Command: cmd + " ", Argv: argv, NoScript: true}, on)
	if other.Allowed() || other.Reason() != SkipNotApproved {
		t.Fatalf("another command string: allowed=%v reason=%q", other.Allowed(), other.Reason())
	}
}
