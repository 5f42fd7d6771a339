package guard

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// A witness writes the run's line only when its guard ended without
// saying it wrote its own: the agent's SIGKILL took the guard.
func TestWitnessWritesOnlyForAKilledGuard(t *testing.T) {
	home := t.TempDir()
	note, _ := json.Marshal(witnessNote{Home: home, Event: "pre_tool_call", Command: "/g --event pre_tool_call -- /h.sh",
		SHA256: "ab", Start: time.Now().Add(-2 * time.Second), PID: 42})
	if code := witnessMain(strings.NewReader(string(note) + "\n" + string(witnessDone))); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if _, err := os.Stat(audit.Path(home)); !os.IsNotExist(err) {
		t.Fatalf("a guard that wrote its own line got a second one (%v)", err)
	}
	if code := witnessMain(strings.NewReader(string(note) + "\n")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	data, err := os.ReadFile(audit.Path(home))
	if err != nil {
		t.Fatal(err)
	}
	l, err := audit.ParseLine([]byte(strings.TrimSpace(string(data))))
	if err != nil {
		t.Fatal(err)
	}
	if l.Outcome() != audit.OutcomeTimeout || l.Via != audit.ViaExec || l.PID != 42 || l.Elapsed < 2 {
		t.Errorf("the killed run's line: %s", data)
	}
	if isWitness([]string{"/usr/bin/hermes-guard", witnessArg0}) || !isWitness([]string{witnessArg0}) {
		t.Error("only argv [witnessArg0] alone starts a witness")
	}
}
