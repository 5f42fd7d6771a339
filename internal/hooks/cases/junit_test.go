package cases

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"
	"time"

	junit "github.com/joshdk/go-junit"

	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/shell"
)

func junitResults(t *testing.T) []Result {
	t.Helper()
	r := &scriptRunner{answers: map[string]shell.Result{
		"guard": answer(`{"action": "block", "message": "refusing <rm> & \u0007bell"}`),
	}}
	e := policyEngine(t, r)
	var out []Result
	for _, c := range mustParse(t, `
- name: rm is refused
  event: pre_tool_call
  payload: {tool_name: terminal}
  expect: {action: block}
- name: "ls goes through <&>"
  event: pre_tool_call
  payload: {tool_name: terminal}
  expect: {action: allow}
- name: context
  event: pre_llm_call
  expect: {hooks_fired: 2}
`) {
		res, err := Run(t.Context(), e, c, hooks.Selection{})
		if err != nil {
			t.Fatal(err)
		}
		res.Elapsed = 1500 * time.Millisecond
		out = append(out, res)
	}
	return out
}

// A real consumer (github.com/joshdk/go-junit, the reader behind several
// CI report tools) reads what we write: the suite, each case by name and
// event, passed or failed, the failure's message and text, the times.
func TestJUnitReadByAConsumer(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, "hook-cases.yaml", junitResults(t)); err != nil {
		t.Fatal(err)
	}
	suites, err := junit.Ingest(buf.Bytes())
	if err != nil {
		t.Fatalf("go-junit cannot read it: %v\n%s", err, buf.String())
	}
	if len(suites) != 1 {
		t.Fatalf("%d suites, want 1:\n%s", len(suites), buf.String())
	}
	s := suites[0]
	if s.Name != "hermes hooks test --cases hook-cases.yaml" {
		t.Errorf("suite name %q", s.Name)
	}
	if s.Totals.Tests != 3 || s.Totals.Failed != 1 || s.Totals.Passed != 2 || s.Totals.Duration != 4500*time.Millisecond {
		t.Errorf("totals %+v", s.Totals)
	}
	want := []struct {
		name, class string
		status      junit.Status
	}{
		{"rm is refused", "pre_tool_call", junit.StatusPassed},
		{"ls goes through <&>", "pre_tool_call", junit.StatusFailed},
		{"context", "pre_llm_call", junit.StatusPassed},
	}
	for i, w := range want {
		tc := s.Tests[i]
		if tc.Name != w.name || tc.Classname != w.class || tc.Status != w.status || tc.Duration != 1500*time.Millisecond {
			t.Errorf("case %d: %q %q %s %s, want %q %q %s 1.5s", i, tc.Name, tc.Classname, tc.Status, tc.Duration, w.name, w.class, w.status)
		}
	}
	failed := s.Tests[1]
	if failed.Error == nil {
		t.Fatal("the failed case has no failure")
	}
	fe, _ := failed.Error.(junit.Error)
	if fe.Message != `action: expected "allow", got "block"` {
		t.Errorf("failure message %q", fe.Message)
	}
	// The text gives the details: what each hook did. The BEL the hook
	// printed cannot appear in XML 1.0: it shows as a JSON escape.
	if !strings.Contains(fe.Body, `~/hook.sh guard: exit 0; answered {"action": "block", "message": "refusing <rm> & \u0007bell"}`) {
		t.Errorf("failure text:\n%s", fe.Body)
	}
}

// The shape CI systems expect, checked strictly with encoding/xml against
// the JUnit schema's structure: testsuites > testsuite > testcase >
// failure, counts that agree with the children, times as decimal seconds.
func TestJUnitShape(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, "hook-cases.yaml", junitResults(t)); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `<?xml version="1.0" encoding="UTF-8"?>`+"\n<testsuites ") {
		t.Errorf("no XML header or root:\n%s", buf.String())
	}
	type failure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string     `xml:"name,attr"`
		Classname string     `xml:"classname,attr"`
		Time      string     `xml:"time,attr"`
		Failures  []failure  `xml:"failure"`
		Errors    []struct{} `xml:"error"`
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    string     `xml:"tests,attr"`
		Failures string     `xml:"failures,attr"`
		Errors   string     `xml:"errors,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    string   `xml:"tests,attr"`
		Failures string   `xml:"failures,attr"`
		Time     string   `xml:"time,attr"`
		Suites   []suite  `xml:"testsuite"`
	}
	dec := xml.NewDecoder(&buf)
	dec.Strict = true
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d testsuite elements", len(doc.Suites))
	}
	s := doc.Suites[0]
	failures := 0
	for _, c := range s.Cases {
		if c.Name == "" || c.Classname == "" {
			t.Errorf("testcase without name or classname: %+v", c)
		}
		if _, err := strconv.ParseFloat(c.Time, 64); err != nil || c.Time != "1.500" {
			t.Errorf("testcase time %q", c.Time)
		}
		if len(c.Failures) > 1 || len(c.Errors) > 0 {
			t.Errorf("testcase %q: %d failures, %d errors", c.Name, len(c.Failures), len(c.Errors))
		}
		for _, f := range c.Failures {
			failures++
			if f.Message == "" || f.Type == "" || !strings.Contains(f.Text, "hooks:\n  ~/hook.sh guard: exit 0") {
				t.Errorf("failure %+v", f)
			}
		}
	}
	for name, pair := range map[string][2]string{
		"suite tests":       {s.Tests, strconv.Itoa(len(s.Cases))},
		"suite failures":    {s.Failures, strconv.Itoa(failures)},
		"suite errors":      {s.Errors, "0"},
		"suite time":        {s.Time, "4.500"},
		"testsuites tests":  {doc.Tests, s.Tests},
		"testsuites fails":  {doc.Failures, s.Failures},
		"testsuites time":   {doc.Time, s.Time},
		"failed cases (=1)": {strconv.Itoa(failures), "1"},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s = %q, want %q", name, pair[0], pair[1])
		}
	}
}
