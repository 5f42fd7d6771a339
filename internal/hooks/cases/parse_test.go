package cases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

func objText(o *pyjson.Object) string {
	if o == nil {
		return "null"
	}
	return o.String()
}

var catalogue = catalog.NewCatalogue([]string{"my_new_event"})

func TestParse(t *testing.T) {
	const file = `# policy
- name: rm -rf is refused
  event: pre_tool_call
  payload: {tool_name: terminal, args: {command: "rm -rf /", n: 3, f: 1.5, ok: true, none: null}}
  expect: {action: block, message_contains: refusing, hooks_fired: 1}
- name: ls goes through
  event: pre_tool_call
  payload: &ls {tool_name: terminal, args: {command: ls}}
  expect:
    action: allow
    args: null
- name: rewritten
  event: pre_tool_call
  payload: *ls
  expect: {action: modify, args: {command: ls -la}}
- name: context
  event: pre_llm_call
  expect: {context_contains: "Working directory"}
- name: observer
  event: my_new_event
  expect: {hooks_fired: 0}
- name: verify
  event: pre_verify
  expect: {action: finish}
`
	cs, err := Parse("cases.yaml", []byte(file), catalogue)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cs {
		got = append(got, strings.Join([]string{c.Name, c.Event, objText(c.Payload), c.Expect.Object().String()}, " | "))
	}
	want := []string{
		`rm -rf is refused | pre_tool_call | {"tool_name": "terminal", "args": {"command": "rm -rf /", "n": 3, "f": 1.5, "ok": true, "none": null}} | {"action": "block", "message_contains": "refusing", "hooks_fired": 1}`,
		`ls goes through | pre_tool_call | {"tool_name": "terminal", "args": {"command": "ls"}} | {"action": "allow", "args": null}`,
		`rewritten | pre_tool_call | {"tool_name": "terminal", "args": {"command": "ls"}} | {"action": "modify", "args": {"command": "ls -la"}}`,
		`context | pre_llm_call | null | {"context_contains": "Working directory"}`,
		`observer | my_new_event | null | {"hooks_fired": 0}`,
		`verify | pre_verify | null | {"action": "finish"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parsed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if cs[1].Line != 6 || cs[1].File != "cases.yaml" {
		t.Errorf("case 1 at %s:%d, want cases.yaml:6", cs[1].File, cs[1].Line)
	}
}

func TestParseJSON(t *testing.T) {
	const file = `[
  {"name": "block", "event": "pre_tool_call",
   "payload": {"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}},
   "expect": {"action": "block", "args": null}}
]`
	cs, err := Parse("cases.json", []byte(file), catalogue)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Line != 2 || !cs[0].Expect.HasArgs || cs[0].Expect.Args != nil {
		t.Fatalf("parsed %+v", cs)
	}
	if got := objText(cs[0].Payload); !strings.Contains(got, `"tool_input": {"command": "rm -rf /"}`) {
		t.Errorf("payload = %s", got)
	}
}

// Every problem names the file, the line and the field, and all of them
// are reported at once.
func TestParseProblems(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string
	}{
		{"empty", "", []string{"f.yaml: the file is empty: expected a list of cases"}},
		{"comments only", "# nothing yet\n", []string{"f.yaml: the file is empty: expected a list of cases"}},
		{"not a list", "name: x\nevent: pre_tool_call\n", []string{"f.yaml:1: expected a list of cases, got a mapping"}},
		{"scalar", "hello\n", []string{`f.yaml:1: expected a list of cases, got a string ("hello")`}},
		{"empty list", "[]\n", []string{"f.yaml:1: the list has no cases"}},
		{"syntax", "- name: x\n  event: [\n", []string{"f.yaml:2: not valid YAML or JSON: did not find expected node content"}},
		{"two documents", "- {name: a, event: pre_tool_call, expect: {action: allow}}\n---\n- {}\n", []string{
			"f.yaml:2: more than one YAML document: put every case in one list"}},
		{"case not a mapping", "- just a string\n", []string{
			`f.yaml:1: cases[0]: expected a mapping with name, event and expect, got a string ("just a string")`}},
		{"missing fields", "- {payload: {}}\n", []string{
			"f.yaml:1: cases[0]: missing name",
			"f.yaml:1: cases[0]: missing event",
			"f.yaml:1: cases[0]: missing expect (one or more of action, message_contains, context_contains, args, hooks_fired, decision, command), or canary: true"}},
		{"unknown keys", "- name: a\n  evnt: pre_tool_call\n  event: pre_tool_call\n  expect:\n    actoin: block\n", []string{
			`f.yaml:2: cases[0]: unknown key "evnt" — did you mean "event"? (known: name, event, payload, expect, canary)`,
			`f.yaml:5: cases[0].expect: unknown key "actoin" — did you mean "action"? (known: action, message_contains, context_contains, args, hooks_fired, decision, command)`}},
		{"canary not a boolean", "- {name: a, event: pre_tool_call, canary: \"yes\"}\n", []string{
			`f.yaml:1: cases[0].canary: canary must be true or false (unquoted), got a string ("yes")`,
			"f.yaml:1: cases[0]: missing expect (one or more of action, message_contains, context_contains, args, hooks_fired, decision, command), or canary: true"}},
		{"canary of an event that cannot block", "- {name: a, event: pre_llm_call, canary: true}\n", []string{
			"f.yaml:1: cases[0].canary: a canary is a call that must never be blocked: only pre_tool_call can block one, not pre_llm_call",
			"f.yaml:1: cases[0]: missing expect (one or more of action, message_contains, context_contains, args, hooks_fired, decision, command), or canary: true"}},
		{"unknown event", "- {name: a, event: pre_tol_call, expect: {action: allow}}\n", []string{
			`f.yaml:1: cases[0].event: unknown event "pre_tol_call" — did you mean "pre_tool_call"?`}},
		{"unknown event far from any", "- {name: a, event: zzzzzz, expect: {hooks_fired: 1}}\n", []string{
			`f.yaml:1: cases[0].event: unknown event "zzzzzz" (see 'hermes hooks events')`}},
		{"gateway event", "- {name: a, event: \"agent:start\", expect: {hooks_fired: 1}}\n", []string{
			`f.yaml:1: cases[0].event: agent:start is a gateway event: its hooks only observe and cannot be tested by cases, except a slash command's (command:<name>, expect decision) (try 'hermes hooks test agent:start')`}},
		{"event shell hooks cannot serve", "- {name: a, event: transform_api_error_classification, expect: {hooks_fired: 0}}\n", []string{
			`f.yaml:1: cases[0].event: shell hooks cannot serve transform_api_error_classification (only in-process plugins can)`}},
		{"unknown action", "- name: a\n  event: pre_tool_call\n  expect:\n    action: blok\n", []string{
			`f.yaml:4: cases[0].expect.action: unknown action "blok" for pre_tool_call — did you mean "block"? (one of allow, block, approve, modify)`}},
		{"action of another event", "- {name: a, event: pre_verify, expect: {action: block}}\n", []string{
			`f.yaml:1: cases[0].expect.action: unknown action "block" for pre_verify (one of continue, finish)`}},
		{"action on pre_llm_call", "- {name: a, event: pre_llm_call, expect: {action: allow}}\n", []string{
			`f.yaml:1: cases[0].expect.action: pre_llm_call outcomes have no action: expect context_contains instead`}},
		{"action on an observer", "- {name: a, event: on_session_start, expect: {action: allow}}\n", []string{
			`f.yaml:1: cases[0].expect.action: on_session_start is an observer event: its outcome has no action (expect hooks_fired instead)`}},
		{"unknown action, unknown event", "- {name: a, event: nope_nope, expect: {action: explode}}\n", []string{
			`f.yaml:1: cases[0].event: unknown event "nope_nope" (see 'hermes hooks events')`,
			`f.yaml:1: cases[0].expect.action: unknown action "explode" (one of allow, block, approve, modify, continue, finish)`}},
		{"expectations the event cannot meet", "- name: a\n  event: pre_llm_call\n  expect:\n    message_contains: x\n    args: {a: 1}\n- name: b\n  event: pre_tool_call\n  expect: {context_contains: x}\n", []string{
			`f.yaml:4: cases[0].expect.message_contains: pre_llm_call outcomes have no message (only pre_tool_call, pre_verify, command:<name>): this expectation could never be met`,
			`f.yaml:5: cases[0].expect.args: pre_llm_call outcomes have no arguments (only pre_tool_call): this expectation could never be met`,
			`f.yaml:8: cases[1].expect.context_contains: pre_tool_call outcomes have no context (only pre_llm_call): this expectation could never be met`}},
		{"wrong types", "- name: 42\n  event: [pre_tool_call]\n  payload: [1]\n  expect: {action: true, message_contains: {a: b}, args: ls, hooks_fired: -1}\n- name: b\n  event: pre_tool_call\n  expect: {hooks_fired: \"2\"}\n- name: c\n  event: pre_tool_call\n  expect: [action]\n", []string{
			`f.yaml:1: cases[0].name: expected a string, got a number (42)`,
			`f.yaml:2: cases[0].event: expected a string, got a list`,
			`f.yaml:3: cases[0].payload: expected a mapping (a JSON object: fields or wire shape), got a list`,
			`f.yaml:4: cases[0].expect.action: expected a string, got a boolean (true)`,
			`f.yaml:4: cases[0].expect.message_contains: expected a string, got a mapping`,
			`f.yaml:4: cases[0].expect.args: expected a mapping (the final arguments) or null (no hook modified them), got a string ("ls")`,
			`f.yaml:4: cases[0].expect.hooks_fired: expected a whole number of hooks (0 or more), got a number (-1)`,
			`f.yaml:7: cases[1].expect.hooks_fired: expected a whole number of hooks (0 or more), got a string ("2")`,
			`f.yaml:10: cases[2].expect: expected a mapping of action, message_contains, context_contains, args, hooks_fired, decision, command, got a list`}},
		{"empty expect", "- {name: a, event: pre_tool_call, expect: {}}\n", []string{
			"f.yaml:1: cases[0].expect: expect is empty: give one or more of action, message_contains, context_contains, args, hooks_fired, decision, command"}},
		{"blank name and duplicates", "- {name: \" \", event: pre_tool_call, expect: {action: allow}}\n- {name: a, event: pre_tool_call, expect: {action: allow}}\n- {name: a, event: pre_tool_call, expect: {action: block}}\n", []string{
			"f.yaml:1: cases[0].name: name is blank",
			`f.yaml:3: cases[2].name: duplicate case name "a" (also at line 2): names tell cases apart in reports`}},
		{"repeated key", "- name: a\n  name: b\n  event: pre_tool_call\n  expect: {action: allow}\n", []string{
			"f.yaml:2: cases[0].name: repeated key"}},
		{"payload value JSON cannot carry", "- name: a\n  event: pre_tool_call\n  payload: {args: {n: .nan, b: !!binary aGk=}}\n  expect: {action: allow}\n", []string{
			"f.yaml:3: cases[0].payload.args.n: a value JSON cannot carry: a number (.nan)",
			"f.yaml:3: cases[0].payload.args.b: a value JSON cannot carry: !!binary (aGk=)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs, err := Parse("f.yaml", []byte(tt.file), catalogue)
			var perr *Error
			if !errors.As(err, &perr) {
				t.Fatalf("err = %v (cases %+v), want an *Error", err, cs)
			}
			if cs != nil {
				t.Errorf("cases returned with an error: %+v", cs)
			}
			if got := err.Error(); got != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", got, strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "cases.yaml")
	if err := os.WriteFile(good, []byte("- {name: a, event: pre_tool_call, expect: {action: allow}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cs, err := Load(good, catalogue); err != nil || len(cs) != 1 {
		t.Fatalf("Load = %+v, %v", cs, err)
	}
	missing := filepath.Join(dir, "nope.yaml")
	if _, err := Load(missing, catalogue); err == nil || err.Error() != missing+": cannot read the case file: it does not exist" {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load(dir, catalogue); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("directory: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		// Refused without opening it: opening a FIFO for reading would block.
		if _, err := Load(fifo, catalogue); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("fifo: %v", err)
		}
	}
}

// SPEC §13.2 rule 6: an alias bomb (nine levels of nine aliases) is
// refused quickly, with the place it blew up, instead of eating memory.
func TestParseAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("- name: bomb\n  event: pre_tool_call\n  payload:\n    a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n")
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&b, "    %s: &%s [%s]\n", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = name
	}
	b.WriteString("  expect: {action: allow}\n")
	_, err := Parse("bomb.yaml", []byte(b.String()), catalogue)
	if err == nil || !strings.Contains(err.Error(), "alias bomb") {
		t.Fatalf("Parse = %v", err)
	}
	// A few honest aliases are fine.
	ok := "- name: ok\n  event: pre_tool_call\n  payload:\n    a: &a {tool_name: terminal}\n    b: *a\n  expect: {action: allow}\n"
	if _, err := Parse("ok.yaml", []byte(ok), catalogue); err != nil {
		t.Fatal(err)
	}
}
