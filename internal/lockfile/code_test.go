package lockfile

import (
	"strings"
	"testing"
)

// SPEC §23: system files are recorded by path only, so a lock made on one
// distribution holds on another whose system files differ, even where it
// keeps them in another folder; a pinned file's change is a difference.
func TestCodeDetail(t *testing.T) {
	sha := func(c string) string { return strings.Repeat(c, 64) }
	lock := []CodeFile{{Path: "/usr/bin/sh", System: true}, {Path: "hooks/x.sh", SHA256: sha("a")}}
	other := []CodeFile{{Path: "/bin/sh", System: true}, {Path: "hooks/x.sh", SHA256: sha("a")}}
	if d := codeDetail(lock, other, ""); len(d) != 0 {
		t.Errorf("a system file in another folder is a difference: %v", d)
	}
	changed := []CodeFile{{Path: "/bin/sh", System: true}, {Path: "hooks/x.sh", SHA256: sha("b")}}
	if d := codeDetail(lock, changed, ""); len(d) != 1 || !strings.Contains(d[0], "hooks/x.sh: sha256") {
		t.Errorf("a changed pinned file: %v", d)
	}
	swapped := []CodeFile{{Path: "hooks/sh", SHA256: sha("c")}, {Path: "hooks/x.sh", SHA256: sha("a")}}
	if d := codeDetail(lock, swapped, ""); len(d) != 2 {
		t.Errorf("a system program replaced by a file of the checkout: %v", d)
	}
}

func TestShellDetailGuards(t *testing.T) {
	base := ShellHook{Event: "pre_tool_call", Command: "x", Timeout: 10, FailClosed: true, Protected: true, GuardFlags: []string{"--event", "pre_tool_call", "--fail-closed"}}
	for name, mutate := range map[string]func(*ShellHook){
		"fail_closed dropped": func(h *ShellHook) { h.FailClosed = false },
		"timeout lowered":     func(h *ShellHook) { h.Timeout = 1 },
		"unprotected":         func(h *ShellHook) { h.Protected, h.GuardFlags = false, nil },
		"guard flag dropped":  func(h *ShellHook) { h.GuardFlags = []string{"--event", "pre_tool_call"} },
		"disabled":            func(h *ShellHook) { h.Disabled = true },
	} {
		got := base
		mutate(&got)
		if ShellDetail(base, got) == "" {
			t.Errorf("%s: no difference", name)
		}
	}
	if d := ShellDetail(base, base); d != "" {
		t.Errorf("the same hook differs: %s", d)
	}
	if TrustDetail(&Trust{PinScripts: true, StrictModes: true}, &Trust{PinScripts: true}) == "" {
		t.Error("a trust switch turned off is no difference")
	}
}

func TestDuplicateKey(t *testing.T) {
	data := []byte("{\n  \"version\": 1,\n  \"shell_hooks\": [\n    {\"event\": \"e\",\n     \"fail_closed\": true,\n     \"fail_closed\": false}\n  ]\n}\n")
	key, line, ok := DuplicateKey(data)
	if !ok || key != "fail_closed" || line != 6 {
		t.Fatalf("DuplicateKey = %q, %d, %v; want fail_closed on line 6", key, line, ok)
	}
	if _, err := Parse("lock.json", data); err == nil || !strings.Contains(err.Error(), `"fail_closed" appears twice`) || !strings.Contains(err.Error(), "line 6") {
		t.Errorf("Parse: %v", err)
	}
	if _, _, ok := DuplicateKey([]byte(`{"a": {"b": 1}, "c": [{"b": 2}, {"b": 3}]}`)); ok {
		t.Error("the same key in different objects counted as a duplicate")
	}
}
