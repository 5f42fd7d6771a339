//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitForText reads the output until a line containing want.
func (w *watching) waitForText(want string) {
	w.t.Helper()
	w.waitFor(fmt.Sprintf("line with %q", want), func(line string) bool { return strings.Contains(line, want) })
}

// waitForStderr waits until stderr holds want (polling the buffer the
// process writes to: the event itself, not a time).
func (w *watching) waitForStderr(want string) {
	w.t.Helper()
	deadline := time.Now().Add(failAfter) // bounds a test going wrong
	for !strings.Contains(w.stderr.String(), want) {
		if time.Now().After(deadline) {
			w.t.Fatalf("stderr has no %q after %s:\n%s", want, failAfter, w.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// test --watch keeps watching when the scripts folder, then HERMES_HOME
// itself, is deleted and made again (SPEC §22): each time, an edit after
// the folder came back reruns, with the new script's answer. Before, the
// watch went deaf once its folder was gone.
func TestWatchSurvivesReplacedFolders(t *testing.T) {
	home := t.TempDir()
	hermesHome := filepath.Join(home, ".hermes")
	scripts := filepath.Join(hermesHome, "agent-hooks")
	script := filepath.Join(scripts, "a.sh")
	config := filepath.Join(hermesHome, "config.yaml")
	answer := func(v string) string {
		return "#!/bin/sh\ncat >/dev/null\necho '{\"context\": \"answer " + v + "\"}'\n"
	}
	populate := func(v string) {
		if err := os.MkdirAll(scripts, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, config, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/agent-hooks/a.sh\"\n", 0o644)
		writeFile(t, script, answer(v), 0o755)
	}
	populate("one")

	w := startWatching(t, home, "hooks", "test", "on_session_start", "--watch")
	w.waitForText("answer one")

	// The scripts folder: deleted (the rerun finds no script), made again,
	// the script written in it.
	if err := os.RemoveAll(scripts); err != nil {
		t.Fatal(err)
	}
	w.waitForText("not found")
	if err := os.Mkdir(scripts, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, script, answer("two"), 0o755)
	w.waitForText("answer two")
	// And an edit after that.
	save(t, script, answer("three"), 0o755)
	w.waitForText("answer three")

	// HERMES_HOME itself.
	if err := os.RemoveAll(hermesHome); err != nil {
		t.Fatal(err)
	}
	// The round fails (an explicit HERMES_HOME that does not exist); the
	// watch goes on with the files it watched.
	w.waitForStderr("does not exist (named by HERMES_HOME)")
	populate("four")
	w.waitForText("answer four")
	save(t, script, answer("five"), 0o755)
	w.waitForText("answer five")
	w.interrupt()
}
