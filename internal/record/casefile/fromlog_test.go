package casefile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/record"
)

// logBuilder writes an audit log and payload store by hand, as the guard
// and run-event write them.
type logBuilder struct {
	t     *testing.T
	home  string
	st    record.Store
	lines bytes.Buffer
	clock time.Time
}

func newLog(t *testing.T) *logBuilder {
	home := t.TempDir()
	return &logBuilder{t: t, home: home, st: record.Open(home, record.DefaultMax),
		clock: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}
}

// hookRun is one audit line of a firing.
type hookRun struct {
	via, command string
	exit         int
	parsed       string // JSON, "null" for none
}

// fire records one firing: its payload (unless payload is "") and a line
// per hook run, all with the same id.
func (b *logBuilder) fire(event, payload string, runs ...hookRun) string {
	id := record.NewID()
	if payload != "" {
		if err := b.st.Put(id, []byte(payload)); err != nil {
			b.t.Fatal(err)
		}
	}
	b.clock = b.clock.Add(time.Second)
	for _, r := range runs {
		fmt.Fprintf(&b.lines, `{"time": %q, "event": %q, "kind": "shell", "command": %q, "sha256": null, "exit_code": %d, "timed_out": false, "error": null, "elapsed_seconds": 0.01, "parsed": %s, "via": %q, "id": %q}`+"\n",
			b.clock.Format(time.RFC3339Nano), event, r.command, r.exit, r.parsed, r.via, id)
	}
	return id
}

// guard fires one protected hook through the guard: its own id.
func (b *logBuilder) guard(event, payload, command string, exit int, parsed string) string {
	return b.fire(event, payload, hookRun{audit.ViaExec, command, exit, parsed})
}

func (b *logBuilder) build(sel Selection) *Built {
	os.MkdirAll(filepath.Join(b.home, "logs"), 0o700)
	if err := os.WriteFile(audit.Path(b.home), b.lines.Bytes(), 0o600); err != nil {
		b.t.Fatal(err)
	}
	built, err := FromLog(b.home, sel)
	if err != nil {
		b.t.Fatal(err)
	}
	return built
}

func wire(tool, command string) string {
	return fmt.Sprintf(`{"hook_event_name": "pre_tool_call", "tool_name": %q, "tool_input": {"command": %q}, "session_id": "s", "cwd": "/w", "profile": "", "extra": {"tool_call_id": %q}}`,
		tool, command, record.NewID())
}

const (
	blockJSON   = `{"action": "block", "message": "guard.sh: refusing to delete the root filesystem"}`
	approveJSON = `{"action": "approve", "message": "ask first"}`
	modifyJSON  = `{"action": "modify", "args": {"command": "ls"}}`
)

func TestFromLogDecisions(t *testing.T) {
	b := newLog(t)
	guard := "/usr/bin/hermes-guard --event pre_tool_call --fail-closed -- /h/guard.sh"
	// run-event: two hooks, the second blocks; the firing blocks.
	b.fire("pre_tool_call", wire("terminal", "rm -rf /"),
		hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"}, hookRun{audit.ViaRunEvent, "/h/b.sh", 0, blockJSON})
	// The guard allows ls (twice: the repeat is kept once).
	lsWire := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls -la"}, "session_id": "", "cwd": "/w", "profile": "", "extra": {}}`
	b.guard("pre_tool_call", lsWire, guard, 0, "null")
	b.guard("pre_tool_call", lsWire, guard, 0, "null")
	// An approve outranks a modify.
	b.fire("pre_tool_call", wire("terminal", "git push"),
		hookRun{audit.ViaRunEvent, "/h/m.sh", 0, modifyJSON}, hookRun{audit.ViaRunEvent, "/h/p.sh", 0, approveJSON})
	b.fire("pre_tool_call", wire("write_file", "x"), hookRun{audit.ViaRunEvent, "/h/m.sh", 0, modifyJSON})
	// An exit-2 block through the guard: the agent quoted stderr, which
	// the guard never saw, so no message is expected.
	b.guard("pre_tool_call", wire("terminal", "sudo reboot"), guard, 2, `{"action": "block", "message": "Blocked by shell hook."}`)
	// pre_verify.
	b.fire("pre_verify", `{"hook_event_name": "pre_verify", "tool_name": null, "tool_input": null, "extra": {}}`,
		hookRun{audit.ViaRunEvent, "/h/v.sh", 0, `{"action": "continue", "message": "run the tests"}`})
	// Made no case: an observer event, a payload not kept, one cut.
	b.fire("post_tool_call", wire("terminal", "ls"), hookRun{audit.ViaRunEvent, "/h/log.py", 0, "null"})
	b.fire("pre_tool_call", "", hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"})
	b.fire("pre_tool_call", string(record.Cut([]byte(strings.Repeat("x", record.MaxPayload+1)), record.MaxPayload+1)), hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"})
	// A line from before recording existed (no id).
	b.lines.WriteString(`{"time": "2026-12-01T09:00:00Z", "event": "pre_tool_call", "kind": "shell", "command": "/h/a.sh", "sha256": null, "exit_code": 0, "timed_out": false, "error": null, "elapsed_seconds": 0.01, "parsed": null, "via": "run-event"}` + "\n")

	built := b.build(Selection{})
	type want struct{ name, action, message string }
	var got []want
	for _, c := range built.Cases {
		got = append(got, want{c.Name, c.Expect.Action, c.Expect.MessageContains})
	}
	digest := func(c Case) string { return c.Name[strings.LastIndex(c.Name, "(")+1 : len(c.Name)-1] }
	expected := []want{
		{"terminal: rm -rf / (" + digest(built.Cases[0]) + ")", "block", "guard.sh: refusing to delete the root filesystem"},
		{"terminal: ls -la (" + digest(built.Cases[1]) + ")", "allow", ""},
		{"terminal: git push (" + digest(built.Cases[2]) + ")", "approve", ""},
		{"write_file: x (" + digest(built.Cases[3]) + ")", "modify", ""},
		{"terminal: sudo reboot (" + digest(built.Cases[4]) + ")", "block", ""},
		{"pre_verify (" + digest(built.Cases[5]) + ")", "continue", ""},
	}
	if fmt.Sprint(got) != fmt.Sprint(expected) {
		t.Fatalf("cases:\n got %v\nwant %v", got, expected)
	}
	for _, c := range built.Cases {
		if d := digest(c); len(d) != 6 {
			t.Errorf("%s: digest %q is not 6 characters", c.Name, d)
		}
	}
	if built.Duplicates != 1 || built.Firings != 7 {
		t.Errorf("duplicates %d (want 1), firings %d (want 7)", built.Duplicates, built.Firings)
	}
	for reason, n := range map[string]int{SkipNoDecision: 1, SkipNoPayload: 1, SkipTruncated: 1, SkipNoID: 1} {
		if built.Skipped[reason] != n {
			t.Errorf("skipped for %q: %d, want %d (all: %v)", reason, built.Skipped[reason], n, built.Skipped)
		}
	}

	// The file: its first comment says what it was made from, and YAML
	// reads each payload back as the bytes recorded.
	var out bytes.Buffer
	header := built.Header(b.home, Selection{}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if err := Write(&out, header, built.Cases); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "# Made by `hermes hooks cases from-log` on 2026-12-02T00:00:00Z from 7 recorded firing(s) in "+record.Dir(b.home)) {
		t.Errorf("first comment: %.300s", out.String())
	}
	var parsed []struct {
		Name    string         `yaml:"name"`
		Event   string         `yaml:"event"`
		Payload map[string]any `yaml:"payload"`
		Expect  map[string]any `yaml:"expect"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &parsed); err != nil {
		t.Fatalf("the file is not YAML: %v\n%s", err, out.String())
	}
	if len(parsed) != len(built.Cases) || parsed[0].Expect["action"] != "block" || parsed[0].Payload["tool_input"].(map[string]any)["command"] != "rm -rf /" {
		t.Errorf("read back: %+v", parsed)
	}
}

// The agent fires two protected hooks for one call: two guard processes,
// two lines with their own ids and the same payload. The firing's decision
// is the two hooks' together.
func TestFromLogJoinsTheGuardsOfOneCall(t *testing.T) {
	b := newLog(t)
	g1 := "/g --event pre_tool_call -- /h/a.sh"
	g2 := "/g --event pre_tool_call -- /h/b.sh"
	call := wire("terminal", "curl x | sh")
	b.guard("pre_tool_call", call, g1, 0, "null")
	b.guard("pre_tool_call", call, g2, 0, `{"action": "block", "message": "no pipes to sh"}`)
	// The same payload again through the same hook: a new call.
	b.guard("pre_tool_call", call, g1, 0, "null")
	built := b.build(Selection{})
	if len(built.Cases) != 2 || built.Cases[0].Expect.Action != "block" || built.Cases[1].Expect.Action != "allow" {
		for _, c := range built.Cases {
			t.Logf("%s: %+v", c.Name, c.Expect)
		}
		t.Fatalf("want a block (both hooks) then an allow (the next call), got %d case(s)", len(built.Cases))
	}
}

func TestFromLogSelection(t *testing.T) {
	b := newLog(t)
	for i := 0; i < 5; i++ {
		b.fire("pre_tool_call", wire("terminal", fmt.Sprintf("echo %d", i)), hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"})
	}
	b.fire("pre_tool_call", wire("terminal", "rm -rf /"), hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"}, hookRun{audit.ViaRunEvent, "/h/b.sh", 0, blockJSON})
	b.fire("pre_tool_call", wire("terminal", "echo last"), hookRun{audit.ViaRunEvent, "/h/c.sh", 0, "null"})

	names := func(built *Built) string {
		var out []string
		for _, c := range built.Cases {
			out = append(out, c.Name[:strings.LastIndex(c.Name, " (")])
		}
		return strings.Join(out, ", ")
	}
	if got := names(b.build(Selection{Limit: 2})); got != "terminal: rm -rf /, terminal: echo last" {
		t.Errorf("--limit 2 kept %s, want the newest two", got)
	}
	// --status block selects the firing where a hook blocked; its expect
	// is still the firing's.
	if got := names(b.build(Selection{Filter: audit.Filter{Outcomes: []string{audit.OutcomeBlock}}})); got != "terminal: rm -rf /" {
		t.Errorf("--status block: %s", got)
	}
	// --hook selects firings where that hook ran.
	if got := names(b.build(Selection{Filter: audit.Filter{Hooks: []string{"/h/c.sh"}}})); got != "terminal: echo last" {
		t.Errorf("--hook: %s", got)
	}
	since := time.Date(2026, 12, 1, 10, 0, 6, 0, time.UTC)
	if got := names(b.build(Selection{Filter: audit.Filter{Since: since}})); got != "terminal: rm -rf /, terminal: echo last" {
		t.Errorf("--since: %s", got)
	}
	if got := b.build(Selection{Filter: audit.Filter{Event: "pre_verify"}}); len(got.Cases) != 0 {
		t.Errorf("--event pre_verify: %d cases", len(got.Cases))
	}
}

func TestWriteEscapesWhatYAMLRefuses(t *testing.T) {
	payload := pyjson.Marshal(pyjson.NewObject().Set("tool_name", "terminal").Set("args",
		pyjson.NewObject().Set("command", "printf '\x7f\u0085\ufeff\u2028 \x01' # ünïcode: {}[]&*!|>'\"%@`")), pyjson.Options{})
	var out bytes.Buffer
	c := Case{Name: "a: b # c\nd \u0085", Event: "pre_tool_call", Payload: payload, Expect: Expect{Action: "allow", MessageContains: "x: y"}}
	if err := Write(&out, []string{"two\nlines"}, []Case{c}); err != nil {
		t.Fatal(err)
	}
	var parsed []struct {
		Name    string         `yaml:"name"`
		Payload map[string]any `yaml:"payload"`
		Expect  map[string]any `yaml:"expect"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &parsed); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := "printf '\x7f\u0085\ufeff\u2028 \x01' # ünïcode: {}[]&*!|>'\"%@`"
	if parsed[0].Name != c.Name || parsed[0].Payload["args"].(map[string]any)["command"] != want || parsed[0].Expect["message_contains"] != "x: y" {
		t.Errorf("read back %+v", parsed[0])
	}
	if !strings.HasPrefix(out.String(), "# two lines\n") {
		t.Errorf("header: %q", out.String())
	}
}

// The same call decided differently at two times (the guard was edited
// between them) gives two cases, whose names still differ: a case file
// refuses a repeated name.
func TestFromLogNamesStayDistinct(t *testing.T) {
	b := newLog(t)
	call := `{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "sudo ls"}, "extra": {}}`
	b.fire("pre_tool_call", call, hookRun{audit.ViaRunEvent, "/h/a.sh", 0, "null"})
	b.fire("pre_tool_call", call, hookRun{audit.ViaRunEvent, "/h/a.sh", 0, `{"action": "block", "message": "no sudo"}`})
	built := b.build(Selection{})
	if len(built.Cases) != 2 {
		t.Fatalf("%d cases, want 2", len(built.Cases))
	}
	first, second := built.Cases[0].Name, built.Cases[1].Name
	if first == second || second != first+" #2" {
		t.Errorf("names %q and %q", first, second)
	}
}
