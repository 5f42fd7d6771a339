package edit

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// The stable read's parse is the edit's: Parse of the bytes countSettings
// just counted takes its tree instead of parsing again, once; Parse of
// other bytes parses them.
func TestParseTakesTheStableReadsDecoding(t *testing.T) {
	defer config.OfferDecoding(nil)
	src := hooksConfig(3)
	if n, ok := countSettings(src); !ok || n != 7 {
		t.Fatalf("countSettings = %d, %v; want 7 values", n, ok)
	}
	offered := config.TakeDecoding(src)
	if offered == nil {
		t.Fatal("countSettings offered no decoding")
	}
	config.OfferDecoding(offered)
	other, err := Parse(append([]byte("# another file\n"), src...))
	if err != nil {
		t.Fatal(err)
	}
	if other.root == offered.Doc.Content[0] {
		t.Fatal("a Parse of other bytes took the decoding offered")
	}
	d, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if d.root != offered.Doc.Content[0] || config.TakeDecoding(src) != nil {
		t.Fatal("Parse of the bytes counted parsed them again, or left the decoding offered")
	}
	again, err := Parse(src)
	if err != nil || again.root == d.root {
		t.Fatalf("a second Parse shares the first one's tree (%v)", err)
	}
}

// countSettings counts as yaml.Unmarshal's reading did, and what it
// offers is refused or accepted by Parse as a fresh parse is.
func TestCountSettingsAsBefore(t *testing.T) {
	defer config.OfferDecoding(nil)
	for _, src := range []string{
		"", "# only\n", "a: 1\nb: [1, 2, {c: d}]\n", "a: &x 1\nb: *x\n", "a: 1\n---\nb: 2\n",
		"a: 1\n--- [\n", "a: [\n", "a: 1\na: 2\n", "- 1\n- 2\n", "\ufeffa: 1\n", "a: !!binary aGk=\n",
	} {
		var root yaml.Node
		wantN, wantOK := 0, yaml.Unmarshal([]byte(src), &root) == nil
		if wantOK {
			wantN = countValues(&root)
		}
		n, ok := countSettings([]byte(src))
		if n != wantN || ok != wantOK {
			t.Errorf("%q: countSettings = %d, %v; yaml.Unmarshal counts %d, %v", src, n, ok, wantN, wantOK)
		}
		_, errShared := Parse([]byte(src))
		config.OfferDecoding(nil)
		_, errFresh := Parse([]byte(src))
		if (errShared == nil) != (errFresh == nil) || (errShared != nil && errShared.Error() != errFresh.Error()) {
			t.Errorf("%q: Parse after countSettings: %v; fresh: %v", src, errShared, errFresh)
		}
	}
}
