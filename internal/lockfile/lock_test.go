package lockfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func str(s string) *string { return &s }

func sample() *Lock {
	return &Lock{
		ShellHooks: []ShellHook{
			{Event: "pre_tool_call", Command: "b.sh", Script: str("b.sh"), SHA256: str("bb")},
			{Event: "on_session_start", Matcher: nil, Command: "a.sh", Script: str("a.sh"), SHA256: str("aa")},
			{Event: "pre_tool_call", Matcher: str("terminal"), Command: "a.sh <x>", Script: str("a.sh"), SHA256: str("aa")},
		},
		GatewayHooks: []GatewayHook{
			{Name: "z", Files: []File{{"handler.py", "22"}, {"HOOK.yaml", "11"}}},
			{Name: "a"},
		},
		OutboundWebhooks: []Webhook{{URL: "https://b"}, {URL: "https://a", Events: []string{"x"}}},
	}
}

// The file's order (SPEC §20): shell hooks by event then config order,
// gateway hooks by name, files by path, webhooks by url; two-space indent,
// a final newline, no HTML escaping, the same bytes every time.
func TestMarshalOrderAndStability(t *testing.T) {
	a := Marshal(sample())
	b := Marshal(sample())
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same lock differ")
	}
	s := string(a)
	if !strings.HasSuffix(s, "}\n") || strings.HasSuffix(s, "\n\n") {
		t.Errorf("want exactly one final newline:\n%s", s)
	}
	if !strings.HasPrefix(s, "{\n  \"version\": 1,\n  \"shell_hooks\": [\n    {\n      \"event\": \"on_session_start\"") {
		t.Errorf("wrong start or indent:\n%s", s)
	}
	order := []string{`"command": "a.sh"`, `"command": "b.sh"`, `"command": "a.sh <x>"`, `"name": "a"`, `"name": "z"`,
		`"path": "HOOK.yaml"`, `"path": "handler.py"`, `"url": "https://a"`, `"url": "https://b"`}
	last := -1
	for _, o := range order {
		i := strings.Index(s, o)
		if i <= last {
			t.Fatalf("%s is out of order (at %d, previous at %d):\n%s", o, i, last, s)
		}
		last = i
	}
	if !strings.Contains(s, `"files": []`) || !strings.Contains(s, `"events": []`) {
		t.Errorf("empty lists must be [] not null:\n%s", s)
	}
	l, err := Parse("x", a)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Marshal(l), a) {
		t.Error("read and written again, the lock changed")
	}
}

func TestCompare(t *testing.T) {
	want := sample()
	want.Sort()
	if d := Compare(want, sample()); len(d) != 0 {
		t.Fatalf("a lock differs from itself: %v", d)
	}
	got := sample()
	got.ShellHooks[0].SHA256 = str("evil")                                           // changed script
	got.ShellHooks[1].Command = "a2.sh"                                              // removed a.sh, added a2.sh
	got.GatewayHooks[0].Files[0].SHA256 = "swapped"                                  // z/handler.py changed
	got.GatewayHooks[0].Files = append(got.GatewayHooks[0].Files, File{"x.py", "1"}) // added
	got.GatewayHooks = got.GatewayHooks[:1]                                          // a removed
	got.OutboundWebhooks[1].Events = []string{"x", "y"}                              // changed
	got.Sort()
	var lines []string
	for _, d := range Compare(want, got) {
		lines = append(lines, d.String())
	}
	wantLines := []string{
		"shell hook removed: on_session_start a.sh (in the lock, not in the home)",
		"shell hook changed: pre_tool_call b.sh: script sha256 bb in the lock, evil now",
		"shell hook added: on_session_start a2.sh (not in the lock)",
		"gateway hook removed: a (in the lock, not in the home)",
		"gateway hook file changed: z/handler.py: sha256 22 in the lock, swapped now",
		"gateway hook file added: z/x.py (not in the lock)",
		"outbound webhook changed: https://a: events x in the lock, x,y now",
	}
	if strings.Join(lines, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("Compare =\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(wantLines, "\n"))
	}
}

// A matcher is part of the key: the same command under another matcher is
// another hook.
func TestFindShellMatcher(t *testing.T) {
	l := sample()
	if _, ok := l.FindShell("pre_tool_call", nil, "a.sh <x>"); ok {
		t.Error("found a hook without its matcher")
	}
	if _, ok := l.FindShell("pre_tool_call", str("terminal"), "a.sh <x>"); !ok {
		t.Error("did not find the hook with its matcher")
	}
}

func TestParseRefuses(t *testing.T) {
	for name, data := range map[string]string{
		"not json":      "hooks: []",
		"version":       `{"version": 2, "shell_hooks": [], "gateway_hooks": [], "outbound_webhooks": []}`,
		"unknown field": `{"version": 1, "shell_hooks": [], "extra": 1}`,
		"two values":    `{"version": 1} {"version": 1}`,
		"no command":    `{"version": 1, "shell_hooks": [{"event": "x", "command": ""}]}`,
	} {
		if _, err := Parse("f.json", []byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		} else {
			var le *Error
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "f.json") {
				t.Errorf("%s: %v is not a *Error naming the file", name, err)
			}
		}
	}
}

func TestWriteReadAndHashDir(t *testing.T) {
	dir := t.TempDir()
	for path, body := range map[string]string{"HOOK.yaml": "name: n", "handler.py": "x", "lib/util.py": "y",
		"__pycache__/handler.cpython-312.pyc": "z", "old.pyc": "z"} {
		p := filepath.Join(dir, "g", path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := HashDir(filepath.Join(dir, "g"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if got := strings.Join(paths, " "); got != "HOOK.yaml handler.py lib/util.py" {
		t.Errorf("HashDir paths = %s", got)
	}
	path := filepath.Join(dir, DefaultName)
	l := &Lock{GatewayHooks: []GatewayHook{{Name: "g", Files: files}}}
	if err := Write(path, l); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := Compare(back, l); len(d) != 0 {
		t.Errorf("written and read back, the lock differs: %v", d)
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("Read of a missing file = %v", err)
	}
}

// FuzzParse: whatever Parse accepts renders and reads back to the same
// bytes, and equals itself (a lock never differs from itself).
func FuzzParse(f *testing.F) {
	f.Add(Marshal(sample()))
	f.Add([]byte(`{"version": 1, "shell_hooks": [{"event": "e", "matcher": null, "command": "c", "script": null, "sha256": null}], "gateway_hooks": [], "outbound_webhooks": []}`))
	f.Add([]byte(`{"version": 1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("f", data)
		if err != nil {
			return
		}
		once := Marshal(l)
		back, err := Parse("f", once)
		if err != nil {
			t.Fatalf("a rendered lock does not parse: %v\n%s", err, once)
		}
		if again := Marshal(back); !bytes.Equal(again, once) {
			t.Fatalf("render, parse, render differs:\n%s\n%s", once, again)
		}
		if d := Compare(l, back); len(d) != 0 {
			t.Fatalf("a lock differs from itself: %v", d)
		}
	})
}
