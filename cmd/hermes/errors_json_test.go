//go:build unix

package main

import (
	"encoding/json"
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
	stdout, stderr := interruptedRun(t, home, "slow-started", syscall.SIGINT, "hooks", "test", "on_session_start", "--json")
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
