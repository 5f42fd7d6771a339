package trust

import (
	"os"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
)

// While edit swaps a script, both versions are approved; nothing else is:
// not a third content, not the staged hash for another pair.
func TestDecideStagedApproval(t *testing.T) {
	p := script(t, "#!/bin/sh\necho old\n", 0o700)
	old := allowlist.FingerprintNow(p)
	l := approve("pre_tool_call", p, allowlist.ViaAccept, old)
	other := script(t, "#!/bin/sh\necho other\n", 0o700)
	l.Approve(allowlist.NewEntry("pre_tool_call", other, allowlist.ViaAccept, allowlist.FingerprintNow(other), time.Now()))

	os.WriteFile(p, []byte("#!/bin/sh\necho new\n"), 0o700)
	newFP := allowlist.FingerprintNow(p)
	hook := Hook{Event: "pre_tool_call", Command: p}
	if v := Decide(l, hook, on); v.Allowed() {
		t.Fatal("new content allowed before it was staged")
	}
	// Staged for another command, or another event: no effect.
	l.Stage(allowlist.NewEntry("pre_tool_call", other, allowlist.ViaAccept, newFP, time.Now()))
	l.Stage(allowlist.NewEntry("post_tool_call", p, allowlist.ViaAccept, newFP, time.Now()))
	if v := Decide(l, hook, on); v.Allowed() {
		t.Fatal("a hash staged for another pair approved this one")
	}
	l.Stage(allowlist.NewEntry("pre_tool_call", p, allowlist.ViaAccept, newFP, time.Now()))
	if v := Decide(l, hook, on); !v.Allowed() || v.Approval.ScriptSHA256 != newFP.SHA256 {
		t.Fatalf("staged new content: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
	os.WriteFile(p, []byte("#!/bin/sh\necho old\n"), 0o700)
	if v := Decide(l, hook, on); !v.Allowed() || v.Approval.ScriptSHA256 != old.SHA256 {
		t.Fatalf("old content while staged: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
	os.WriteFile(p, []byte("#!/bin/sh\necho third\n"), 0o700)
	if v := Decide(l, hook, on); v.Allowed() || v.Reason() != SkipModified {
		t.Fatalf("a third content: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
}

// The same for approvals that record the hook's code (SPEC §23): a staged
// entry pinning the new content approves it, a third content neither.
func TestDecideStagedApprovalOnCode(t *testing.T) {
	p := script(t, "#!/bin/sh\necho old\n", 0o700)
	hook := Hook{Event: "pre_tool_call", Command: p}
	found := Decide(&allowlist.List{}, hook, on).Code // the script and its #! interpreter
	withCode := func(fp allowlist.Fingerprint) allowlist.Entry {
		c := code.Code{Pinnable: true, Files: append([]code.File(nil), found.Files...)}
		for i, f := range c.Files {
			if f.Path == p {
				c.Files[i].SHA256 = fp.SHA256
			}
		}
		return allowlist.NewEntry("pre_tool_call", p, allowlist.ViaAccept, fp, time.Now()).WithCode(c)
	}
	l := &allowlist.List{}
	l.Approve(withCode(allowlist.FingerprintNow(p)))
	if v := Decide(l, hook, on); !v.Allowed() || !v.Approval.HasCode() {
		t.Fatalf("approved with its code: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
	os.WriteFile(p, []byte("#!/bin/sh\necho new\n"), 0o700)
	if v := Decide(l, hook, on); v.Allowed() {
		t.Fatal("new content allowed before it was staged")
	}
	l.Stage(withCode(allowlist.FingerprintNow(p)))
	if v := Decide(l, hook, on); !v.Allowed() {
		t.Fatalf("staged new content: allowed=%v reason=%q", v.Allowed(), v.Reason())
	}
	os.WriteFile(p, []byte("#!/bin/sh\necho third\n"), 0o700)
	if v := Decide(l, hook, on); v.Allowed() {
		t.Fatalf("a third content allowed: reason=%q", v.Reason())
	}
}
