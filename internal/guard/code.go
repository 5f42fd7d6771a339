package guard

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/safepath"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// CodeEnv is what the guard finds a hook's code with (SPEC §23): its own
// PATH (the hook inherits it), HOME, HERMES_HOME and, for a dialect hook,
// its --project-dir.
func CodeEnv(inv Invocation, home, hermesHome string) code.Env {
	return code.Env{PATH: os.Getenv("PATH"), Home: home, HermesHome: hermesHome, ProjectDir: inv.Extra["--project-dir"]}
}

// Hook is the trust decision's view of a guarded hook: the wrapped
// command's approval, the script §4 finds in what the guard runs, and the
// code of COMMAND. Used by the guard and by every command of hermes that
// judges a protected hook, so both judge the same files.
func Hook(inv Invocation, event, command, home, hermesHome string) trust.Hook {
	judged, noScript := Judged(inv)
	return trust.Hook{Event: event, Command: command, Argv: judged, NoScript: noScript, Home: home,
		CodeArgv: inv.Inner, CodeEnv: CodeEnv(inv, home, hermesHome)}
}

// unpinned says why an approval may not be run by the guard (SPEC §24
// item 1): it recorded neither a sha256 nor its code — what the agent's
// own "Allow this hook?" prompt writes. "" when it pins something.
func (g *run) unpinned(e allowlist.Entry) string {
	if e.Pinned() || e.HasCode() {
		return ""
	}
	return "approved without a pin: approve it with hermes hooks accept " + shell.Quote(g.innerText())
}

// unsafeHome says why the guard must not decide at all (SPEC §24 item 7):
// the allowlist, or a folder above it (HERMES_HOME), can be changed by
// someone else, ACLs included. "" when only the user or root can.
func unsafeHome(hermesHome string) string {
	path := allowlist.Open(hermesHome).Path
	target := path
	if _, err := os.Lstat(path); err != nil {
		target = hermesHome // nothing to read yet: the home decides who may put one
	}
	if err := safepath.New(os.Getuid()).Check(target); err != nil {
		return "someone else can change what the guard decides on: " + err.Error()
	}
	return ""
}

// pinnedProgram opens the program the guard is about to start when it is
// a pinned compiled file of the code (not a system file, no #! line) and
// checks, through the descriptor it keeps, that its bytes are the approved
// ones: the hook is then started from that descriptor, so a rename between
// hash and exec changes nothing (SPEC §23). nil when the program is
// started by path (a system file, or a script its interpreter opens by
// path); an error when the bytes are not the approved ones.
func pinnedProgram(path string, v trust.Verdict) (*os.File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil
	}
	want := ""
	for _, f := range v.Approval.Code {
		if f.Path == abs && !f.System {
			want = f.SHA256
		}
	}
	if want == "" {
		return nil, nil
	}
	fh, sum, err := code.Open(abs)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read: %w", abs, err)
	}
	if sum != want {
		fh.Close()
		return nil, fmt.Errorf("%s %s changed)", trust.SkipModified+" (", abs)
	}
	if _, err := fh.Seek(0, 0); err != nil || isScript(fh) {
		fh.Close()
		return nil, nil
	}
	return fh, nil
}

// isScript reports a #! line: such a program is re-opened by path by its
// interpreter, so it is hashed again after the run instead.
func isScript(fh *os.File) bool {
	head := make([]byte, 2)
	n, _ := fh.ReadAt(head, 0)
	return bytes.Equal(head[:n], []byte("#!"))
}

// execPath is how the program is named to execve: the descriptor it was
// hashed through, when there is one. Execve of /proc/self/fd/N runs the
// open file itself, as execveat(fd, "", AT_EMPTY_PATH) does (glibc's
// fexecve falls back to the same), whatever is at the path now; the
// descriptor is close-on-exec, so the hook does not inherit it.
func execPath(path string, fh *os.File) string {
	if fh == nil {
		return path
	}
	return "/proc/self/fd/" + strconv.Itoa(int(fh.Fd()))
}

// scriptsChanged hashes the pinned files of the code again after the run
// (SPEC §23: a script is opened by path, so it is checked afterwards). It
// returns the first file whose hash differs from the one taken before the
// run, with both hashes; "" when none changed.
func scriptsChanged(v trust.Verdict) (path, before, after string) {
	for _, f := range v.Code.Files {
		if f.System || f.SHA256 == "" {
			continue
		}
		now, _ := code.Hash(f.Path)
		if now != f.SHA256 {
			return f.Path, f.SHA256, now
		}
	}
	return "", "", ""
}

// decideAgain makes the decision again, from the allowlist and the files
// as they are now, when the program's bytes are no longer those decided
// on: an edit (SPEC §25) may have swapped in content it approved between
// the decision and the start. It reports whether the hook is allowed now,
// and then that decision is the run's.
func (g *run) decideAgain() bool {
	list, _, err := allowlist.Open(g.hermesHome).Read()
	if err != nil {
		return false
	}
	v := trust.Decide(list, g.hook, Settings)
	if !v.Allowed() {
		return false
	}
	g.verdict, g.sha = v, v.SHA256()
	return true
}

// approvedNow says whether the hook's code as it is now is approved: after
// a change during the run, an approved swap (hermes hooks edit, SPEC §25)
// is no news for the agent's stderr; the audit line still records it.
func (g *run) approvedNow() bool {
	list, _, err := allowlist.Open(g.hermesHome).Read()
	if err != nil {
		return false
	}
	v := trust.Decide(list, g.hook, Settings)
	return v.Allowed()
}
