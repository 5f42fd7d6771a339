package cases

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// A canary fails only when blocked: approve, modify and allow pass, and
// its own expectations, when it has some, still count (SPEC §26).
func TestCanaryCheck(t *testing.T) {
	str := func(s string) *string { return &s }
	canary := Case{Name: "ls", Event: "pre_tool_call", Canary: true}
	for _, action := range []string{"allow", "approve", "modify"} {
		if f := canary.Check(Got{Action: str(action)}); len(f) != 0 {
			t.Errorf("a canary that got %s failed: %v", action, f)
		}
	}
	f := canary.Check(Got{Action: str("block"), Message: str("no ls")})
	if len(f) != 1 || !strings.Contains(f[0], `canary blocked: "no ls"`) {
		t.Errorf("a blocked canary: %v", f)
	}
	withExpect := Case{Canary: true, Expect: Expect{HooksFired: new(int)}}
	if f := withExpect.Check(Got{Action: str("allow"), HooksFired: 2}); len(f) != 1 {
		t.Errorf("a canary's own expectation was not checked: %v", f)
	}
	if f := (Case{Expect: Expect{Action: str("block")}}).Check(Got{Action: str("block")}); len(f) != 0 {
		t.Errorf("an ordinary case expecting a block failed: %v", f)
	}
}

// Canaries are a JUnit test suite of their own (SPEC §26); the suites
// add up in the root.
func TestJUnitCanarySuite(t *testing.T) {
	r := &scriptRunner{answers: map[string]shell.Result{
		"guard": answer(`{"action": "block", "message": "no"}`),
	}}
	e := policyEngine(t, r)
	var results []Result
	for _, c := range mustParse(t, `
- name: rm is refused
  event: pre_tool_call
  payload: {tool_name: terminal}
  expect: {action: block}
- name: "canary: ls"
  event: pre_tool_call
  canary: true
  payload: {tool_name: terminal}
`) {
		res, err := Run(t.Context(), e, c, hooks.Selection{})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if results[0].Passed() == false || results[1].Passed() || !results[1].Blocked() {
		t.Fatalf("the blocking guard: case passed %t, canary passed %t", results[0].Passed(), results[1].Passed())
	}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, "c.yaml", results); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 2 || doc.Suites[1].Name != "hermes hooks test --cases c.yaml (canaries)" ||
		doc.Suites[0].Tests != 1 || doc.Suites[0].Failures != 0 || doc.Suites[1].Tests != 1 || doc.Suites[1].Failures != 1 ||
		doc.Tests != 2 || doc.Failures != 1 {
		t.Errorf("suites: %+v\n%s", doc, buf.String())
	}
}
