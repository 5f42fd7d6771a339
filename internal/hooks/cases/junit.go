package cases

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// The JUnit XML that CI systems read (GitHub test reporters, GitLab's
// artifacts:reports:junit, Jenkins): <testsuites> holding one <testsuite>
// per case file, one <testcase> per case, a <failure> with a one-line
// message and the details as text for each case that failed. Times are
// seconds with three decimals.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	File     string      `xml:"file,attr,omitempty"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the results of one case file as JUnit XML. Each case's
// classname is its event, so reports group cases by event. Canaries
// (SPEC §26) are a test suite of their own, after the other cases'; a
// suite with no case is left out (unless the file has none at all).
func WriteJUnit(w io.Writer, file string, results []Result) error {
	var cases, canaries []Result
	for _, r := range results {
		if r.Case.Canary {
			canaries = append(canaries, r)
		} else {
			cases = append(cases, r)
		}
	}
	type part struct {
		name    string
		results []Result
	}
	parts := []part{{"hermes hooks test --cases " + file, cases}}
	if len(canaries) > 0 {
		if len(cases) == 0 {
			parts = nil
		}
		parts = append(parts, part{"hermes hooks test --cases " + file + " (canaries)", canaries})
	}
	doc := junitSuites{Name: "hermes hooks"}
	var total time.Duration
	for _, p := range parts {
		suite, elapsed := junitSuiteOf(p.name, file, p.results)
		total += elapsed
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Suites = append(doc.Suites, suite)
	}
	doc.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuiteOf is one test suite of results, and the time they took.
func junitSuiteOf(name, file string, results []Result) (junitSuite, time.Duration) {
	suite := junitSuite{Name: name, File: file}
	var total time.Duration
	for _, r := range results {
		total += r.Elapsed
		tc := junitCase{Name: r.Case.Name, Classname: r.Case.Event, Time: seconds(r.Elapsed),
			File: r.Case.File, Line: r.Case.Line}
		details := strings.Join(r.HookLines(), "\n")
		if !r.Passed() {
			suite.Failures++
			tc.Failure = &junitFailure{Message: strings.Join(r.Failures, "; "), Type: "expectation",
				Text: strings.Join(r.Failures, "\n") + "\n\nhooks:\n" + indentLines(details)}
		} else if details != "" {
			tc.SystemOut = "hooks:\n" + indentLines(details)
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests, suite.Time = len(results), seconds(total)
	return suite, total
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func indentLines(s string) string {
	if s == "" {
		return "  (no hook is configured for the event)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
