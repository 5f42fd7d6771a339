package allowlist

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func python(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	return py
}

// interopCommands are awkward strings a user could configure.
var interopCommands = []string{
	`~/.hermes/agent-hooks/guard.sh --strict`,
	`/opt/hooks/dire "quoted" 'single' \back\slash.sh`,
	"héllo wörld/日本語.sh --emoji 🎉",
	"tab\there\nnewline.sh",
	"\u2028line-separator.py",
}

// The agent's own matching rule must find what this package writes, and
// Python's json.dumps must reproduce our bytes exactly.
func TestPythonReadsWhatWeWrite(t *testing.T) {
	py := python(t)
	s := newStore(t)
	for _, c := range interopCommands {
		if _, err := s.Update(approve("pre_tool_call", c)); err != nil {
			t.Fatal(err)
		}
	}
	const script = `import json, sys
path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    raw = f.read()
data = json.loads(raw)
for c in sys.stdin.read().split("\0"):
    if not any(a.get("event") == "pre_tool_call" and a.get("command") == c for a in data["approvals"]):
        print("not approved:", repr(c)); sys.exit(1)
    if any(a.get("event") == "post_tool_call" and a.get("command") == c for a in data["approvals"]):
        print("wrong event matched:", repr(c)); sys.exit(1)
again = json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)
if again != raw:
    print("json.dumps differs:\n" + again); sys.exit(1)
`
	cmd := exec.Command(py, "-c", script, s.Path)
	cmd.Stdin = strings.NewReader(strings.Join(interopCommands, "\x00"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
}

// A file the agent wrote is read (every command found) and rewritten
// byte for byte.
func TestWeReadWhatPythonWrites(t *testing.T) {
	py := python(t)
	s := newStore(t)
	const script = `import json, sys
cmds = sys.stdin.read().split("\0")
data = {"approvals": [{"event": "pre_tool_call", "command": c, "approved_at": "2026-11-29T10:11:12.345678",
                       "script_mtime_at_approval": 1795856400.25, "x-agent": {"n": [1, 2.5]}} for c in cmds],
        "schema": 1}
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
`
	cmd := exec.Command(py, "-c", script, s.Path)
	cmd.Stdin = strings.NewReader(strings.Join(interopCommands, "\x00"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want, err := os.ReadFile(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	l, warnings, err := s.Read()
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Read: %q %v", warnings, err)
	}
	for _, c := range interopCommands {
		e, ok := l.Find("pre_tool_call", c)
		if !ok {
			t.Errorf("Find(%q) failed", c)
			continue
		}
		if e.Pinned() {
			t.Errorf("agent entry %q reads as pinned", c)
		}
		if _, ok := e.MtimeAtApproval(); !ok {
			t.Errorf("numeric mtime of %q not understood", c)
		}
	}
	// A write that changes nothing must give back Python's bytes.
	if _, err := s.Update(func(*List) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(s.Path); string(got) != string(want) {
		t.Errorf("rewrite differs from Python's file:\n got %s\nwant %s", got, want)
	}
}
