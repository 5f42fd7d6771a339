package main

import (
	"bytes"
	"os"
	"path/filepath"
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
