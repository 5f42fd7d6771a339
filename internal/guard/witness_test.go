package guard

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/record"
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

// SPEC §29 item 5: a guard killed after it wrote its line (or handed it to
// its deferred writer) but before it told its witness leaves one line,
// not two: the witness writes nothing for an id already written, and the
// deferred writer nothing for an id the witness wrote.
func TestWitnessNeverWritesASecondLineForTheRun(t *testing.T) {
	home := t.TempDir()
	id := record.NewID()
	guardLine := audit.Record{ID: id, Time: time.Now(), Event: "pre_tool_call", Kind: "shell", Command: "/h.sh", Via: audit.ViaExec, Status: audit.StatusRan}
	if err := audit.Append(home, guardLine); err != nil {
		t.Fatal(err)
	}
	note, _ := json.Marshal(witnessNote{ID: id, Home: home, Event: "pre_tool_call", Command: "/h.sh", Start: time.Now(), PID: 42})
	if code := witnessMain(strings.NewReader(string(note) + "\n")); code != 0 {
		t.Fatalf("exit %d", code)
	}
	// And the other way round: the witness first, the deferred line after.
	id2 := record.NewID()
	note, _ = json.Marshal(witnessNote{ID: id2, Home: home, Event: "pre_tool_call", Command: "/h.sh", Start: time.Now(), PID: 43})
	witnessMain(strings.NewReader(string(note) + "\n"))
	guardLine.ID = id2
	e, _ := audit.Encode(guardLine)
	head, _ := json.Marshal(deferredNote{Home: home, ID: id2})
	if code := deferredMain(strings.NewReader(string(head) + "\n" + string(e.Line))); code != 0 {
		t.Fatalf("deferred writer exit %d", code)
	}
	data, _ := os.ReadFile(audit.Path(home))
	if n := strings.Count(string(data), id); n != 1 {
		t.Errorf("%d lines for the first run, want 1:\n%s", n, data)
	}
	if n := strings.Count(string(data), id2); n != 1 {
		t.Errorf("%d lines for the second run, want 1:\n%s", n, data)
	}
}
