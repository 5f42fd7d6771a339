package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
)

// codeFixture: a program in its own bin folder on PATH, and a .sh argument.
func codeFixture(t *testing.T) (bin, prog, rules string, env code.Env) {
	t.Helper()
	dir := t.TempDir()
	bin = filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	prog = filepath.Join(bin, "tool")
	rules = filepath.Join(dir, "rules.sh")
	for p, body := range map[string]string{prog: "\x7fELF v1", rules: "deny\n"} {
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin, prog, rules, code.Env{PATH: bin + ":/usr/bin:/bin"}
}

func approveNow(t *testing.T, h Hook, s Settings) *allowlist.List {
	t.Helper()
	v := Decide(nil, h, s)
	l := &allowlist.List{}
	l.Approve(v.NewApproval(h.Event, h.Command, allowlist.ViaAccept, time.Now()))
	return l
}

// SPEC §23: `tool --rules rules.sh` pins tool too, so a rewrite of the
// program (not §4's script) is modified, naming it.
func TestDecideOnCodeProgramRewritten(t *testing.T) {
	_, prog, rules, env := codeFixture(t)
	h := Hook{Event: "pre_tool_call", Command: "tool --rules " + rules, CodeEnv: env}
	l := approveNow(t, h, on)
	if e := l.Approvals[0]; len(e.Code) != 2 || e.Code[0].Path != prog || e.Code[0].SHA256 == "" {
		t.Fatalf("code recorded: %+v", e.Code)
	}
	if v := Decide(l, h, on); !v.Allowed() {
		t.Fatalf("unchanged code refused: %s", v.Reason())
	}
	if err := os.WriteFile(prog, []byte("\x7fELF evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	v := Decide(l, h, on)
	if v.Allowed() || !strings.Contains(v.Reason(), "modified since approval ("+prog+" changed)") {
		t.Fatalf("rewritten program: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

// A program found elsewhere on PATH now is a change of the code, though no
// file changed.
func TestDecideOnCodeResolvesElsewhere(t *testing.T) {
	bin, _, rules, env := codeFixture(t)
	h := Hook{Event: "pre_tool_call", Command: "tool " + rules, CodeEnv: env}
	l := approveNow(t, h, on)
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "tool"), []byte("\x7fELF v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.CodeEnv.PATH = other + ":" + bin
	v := Decide(l, h, on)
	if v.Allowed() || !strings.Contains(v.Reason(), filepath.Join(other, "tool")) {
		t.Fatalf("program resolving elsewhere: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

// Rule 5 applies to every file of the code: a program another user owns
// in front of a .sh argument is refused, naming the program.
func TestDecideOnCodeForeignProgram(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("chown needs root")
	}
	_, prog, rules, env := codeFixture(t)
	h := Hook{Event: "pre_tool_call", Command: "tool " + rules, CodeEnv: env}
	strict := Settings{PinScripts: true, StrictModes: true}
	l := approveNow(t, h, strict)
	if err := os.Chown(prog, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	v := Decide(l, h, strict)
	if v.Allowed() || v.Unsafe == nil || !strings.Contains(v.Unsafe.Error(), prog) {
		t.Fatalf("foreign program: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

// Not pinnable: approved as the command string, drift unknown, allowed.
func TestDecideOnCodeNotPinnable(t *testing.T) {
	_, _, _, env := codeFixture(t)
	h := Hook{Event: "on_session_start", Command: "sh -c '$X'", CodeEnv: env}
	l := approveNow(t, h, on)
	if l.Approvals[0].Unpinnable == "" {
		t.Fatal("not-pinnable code recorded as pinnable")
	}
	v := Decide(l, h, on)
	if !v.Allowed() || v.Drift != allowlist.DriftUnknown {
		t.Fatalf("allowed=%v drift=%s reason=%q", v.Allowed(), v.Drift, v.Reason())
	}
}

// An approval written before §23 (no code) is judged on its §4 script as
// before: a rewrite of the program it never pinned does not lock the user
// out.
func TestDecideLegacyApprovalAsBefore(t *testing.T) {
	_, prog, rules, env := codeFixture(t)
	h := Hook{Event: "pre_tool_call", Command: "tool " + rules, CodeEnv: env}
	l := approve("pre_tool_call", h.Command, allowlist.ViaAccept, allowlist.FingerprintNow(rules))
	if err := os.WriteFile(prog, []byte("\x7fELF v2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if v := Decide(l, h, on); !v.Allowed() {
		t.Fatalf("legacy approval refused: %s", v.Reason())
	}
	if err := os.WriteFile(rules, []byte("allow\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if v := Decide(l, h, on); v.Allowed() {
		t.Fatal("legacy approval's script rewritten and still allowed")
	}
}

func TestCompareCode(t *testing.T) {
	a := strings.Repeat("a", 64)
	rec := []code.File{{Path: "/usr/bin/jq", System: true}, {Path: "/h/x.sh", SHA256: a}}
	if ch, d := CompareCode(rec, rec); len(ch) != 0 || d != allowlist.DriftUnchanged {
		t.Errorf("same code: %v %s", ch, d)
	}
	now := []code.File{{Path: "/usr/bin/jq"}, {Path: "/h/x.sh", SHA256: a}}
	if ch, _ := CompareCode(rec, now); len(ch) != 1 || ch[0] != "/usr/bin/jq" {
		t.Errorf("a system file no longer trusted by ownership: %v", ch)
	}
	now = []code.File{{Path: "/usr/bin/jq", System: true}, {Path: "/h/x.sh"}}
	if _, d := CompareCode(rec, now); d != allowlist.DriftMissing {
		t.Errorf("unreadable pinned file: %s", d)
	}
}
