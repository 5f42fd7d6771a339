//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A command given --json and interrupted says so in JSON too: exit 130,
// {"error": {"code": 130, "message": "interrupted"}} on stdout, the human
// word on stderr.
func TestInterruptedUnderJSONIsJSON(t *testing.T) {
	t.Parallel()
	home := newHome(t, "hooks:\n  on_session_start:\n    - command: \"~/.hermes/slow.sh\"\n", map[string]string{
		"slow.sh": "#!/bin/sh\ntouch \"$HOME/slow-started\"\nexec sleep 60\n",
	})
	cmd := hermesCmd(t, home, "hooks", "test", "on_session_start", "--json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForFile(t, filepath.Join(home, "slow-started"))
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("exit = %v, want 130\n%s", err, stderr.String())
	}
	var doc struct {
		Error struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	if doc.Error.Code != 130 || doc.Error.Message != "interrupted" {
		t.Errorf("error = %+v, want code 130, message interrupted", doc.Error)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr = %q, want it to say interrupted", stderr.String())
	}
}
