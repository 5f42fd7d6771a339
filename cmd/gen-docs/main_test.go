package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsUpToDate fails when docs/reference or docs/man differ from what
// the command tree generates: run `make docs` and commit.
func TestDocsUpToDate(t *testing.T) {
	tmp := t.TempDir()
	md, man := filepath.Join(tmp, "reference"), filepath.Join(tmp, "man")
	if err := genDocs(md, man); err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]string{{md, "../../docs/reference"}, {man, "../../docs/man"}} {
		compareDirs(t, pair[0], pair[1])
	}
}

func compareDirs(t *testing.T, generated, checkedIn string) {
	t.Helper()
	want, err := os.ReadDir(generated)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadDir(checkedIn)
	if err != nil {
		t.Fatalf("%s: %v (run make docs)", checkedIn, err)
	}
	if len(got) != len(want) {
		t.Errorf("%s has %d files, the command tree generates %d: run make docs", checkedIn, len(got), len(want))
	}
	for _, e := range want {
		a, _ := os.ReadFile(filepath.Join(generated, e.Name()))
		b, err := os.ReadFile(filepath.Join(checkedIn, e.Name()))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s/%s is out of date: run make docs", checkedIn, e.Name())
		}
	}
}

// SPEC §20: each man page carries its own title, keeps every
// <placeholder>, and hermes(1) has the exit-code table.
func TestManPages(t *testing.T) {
	tmp := t.TempDir()
	man := filepath.Join(tmp, "man")
	if err := genDocs(filepath.Join(tmp, "reference"), man); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(man)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(man, e.Name()))
		title := strings.ToUpper(strings.TrimSuffix(e.Name(), ".1"))
		if !bytes.Contains(data, []byte(`.TH "`+title+`" "1"`)) {
			t.Errorf("%s is not titled %s(1)", e.Name(), title)
		}
	}
	for page, want := range map[string]string{
		"hermes-hooks-test.1": `hermes hooks test <event> [-] [flags]`,
		"hermes-hooks-lock.1": `<HERMES_HOME>/hooks.lock.json`,
		"hermes.1":            ".SH EXIT STATUS",
		// SPEC §28 item 8: the guard has its page too.
		"hermes-guard.1": "hermes-guard --event EVENT [--fail-closed]",
	} {
		data, _ := os.ReadFile(filepath.Join(man, page))
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("%s lacks %q", page, want)
		}
	}
	data, _ := os.ReadFile(filepath.Join(man, "hermes.1"))
	for _, code := range []string{`\fB0\fP`, `\fB1\fP`, `\fB2\fP`, `\fB3\fP`, `\fB130\fP`} {
		if !bytes.Contains(data, []byte(code)) {
			t.Errorf("hermes.1 exit status lacks %s", code)
		}
	}
}
