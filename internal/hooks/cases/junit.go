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
// classname is its event, so reports group cases by event.
func WriteJUnit(w io.Writer, file string, results []Result) error {
	suite := junitSuite{Name: "hermes hooks test --cases " + file, File: file}
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
	doc := junitSuites{Name: "hermes hooks", Tests: suite.Tests, Failures: suite.Failures,
		Time: suite.Time, Suites: []junitSuite{suite}}
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

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func indentLines(s string) string {
	if s == "" {
		return "  (no hook is configured for the event)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
