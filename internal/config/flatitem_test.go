package config

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// flatAsGeneral fails when readFlatItem takes text and the general reader
// reads it otherwise: another tree, other values, or not at all.
func flatAsGeneral(t *testing.T, text string) bool {
	t.Helper()
	flat, flatValues, ok := readFlatItem(text, 7, &nodeArena{all: true})
	if !ok {
		return false
	}
	general, values, generalOK := readItemGeneral(text, 7, &nodeArena{all: true})
	if !generalOK {
		t.Fatalf("%q: taken flat, refused by the general reader", text)
	}
	if values != flatValues {
		t.Fatalf("%q: %d values flat, %d by the general reader", text, flatValues, values)
	}
	if diff := sameTree(flat, general, "item"); diff != "" || !reflect.DeepEqual(flat, general) {
		t.Fatalf("%q: read flat otherwise than by the general reader: %s\nflat    %s\ngeneral %s", text, diff, dumpTree(flat), dumpTree(general))
	}
	return true
}

// dumpTree shows every field of a tree that readers fill in.
func dumpTree(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		fmt.Fprintf(&b, "{%d %d %q %q %d:%d [", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column)
		for _, c := range n.Content {
			walk(c)
		}
		b.WriteString("]}")
	}
	walk(n)
	return b.String()
}

// TestFlatItemAsGeneral: every item the flat reader takes, among hook
// entries built of awkward keys, values and layouts, reads as the general
// reader reads it; and the usual entries are taken.
func TestFlatItemAsGeneral(t *testing.T) {
	keys := []string{"command", "matcher", "timeout", "fail_closed", "fail-closed", "true", "null", "y", "a1", "_x", strings.Repeat("k", 1000), strings.Repeat("k", 1001)}
	values := []string{
		"/h/x.sh 1", "terminal", "10", "010", "-1", "1_000", "0x1f", "1e3", ".inf", "true", "no", "~", "null", "<<", "=",
		"'q'", `"q"`, "'it''s'", `"a\"b"`, `"a\tb"`, `"a\\b"`, "''", `""`, "'a", `"a`, "'a' b", "'a'#c",
		"x #c", "x#c", "a:b", "a: b", "x:", "10 ", "-", "- x", "-x", "|", ">", "!t x", "&a x", "*a", "@x", "`x", "%x", "?x", "? x",
		"[a]", "{a: b}", "a, b", "é", "x\tz", "x\r", "a b  c",
	}
	layouts := []struct{ first, next, end string }{
		{"- ", "  ", ""}, {"    - ", "      ", ""}, {"-   ", "    ", ""}, {"- ", "  ", "\n"},
		{"- ", "   ", ""}, {"- ", " ", ""}, {"  - ", "  ", ""}, {"- ", "  ", "\n  # c"}, {"- ", "\n  ", ""},
	}
	taken := 0
	for _, l := range layouts {
		for _, k1 := range keys {
			for _, v1 := range values {
				for _, k2 := range []string{"timeout", k1, "command"} {
					for _, v2 := range []string{"10", v1, "'x'"} {
						text := l.first + k1 + ": " + v1 + "\n" + l.next + k2 + ":  " + v2 + l.end
						if flatAsGeneral(t, text) {
							taken++
						}
						if flatAsGeneral(t, l.first+k1+": "+v1+l.end) {
							taken++
						}
					}
				}
			}
		}
	}
	for _, usual := range []string{
		"- command: /h/x.sh\n  timeout: 10",
		"    - matcher: terminal\n      command: /tmp/agent-hooks/hook-a.sh 0000003\n      timeout: 10",
		"- command: '/h/my hook.sh'\n  fail_closed: true",
		`- command: "/h/x.sh --flag"`,
	} {
		if !flatAsGeneral(t, usual) {
			t.Errorf("%q: not taken flat", usual)
		}
	}
	if taken < 1000 {
		t.Fatalf("only %d of the texts were taken flat", taken)
	}
}

// FuzzFlatItem: what the flat reader takes, the general reader reads alike.
func FuzzFlatItem(f *testing.F) {
	f.Add("- command: /h/x.sh\n  timeout: 10")
	f.Add("  - matcher: 'a'\n    command: \"b c\"\n    fail_closed: true")
	f.Fuzz(func(t *testing.T, text string) {
		flatAsGeneral(t, text)
	})
}

// BenchmarkReadItem: a usual hook entry read flat (readItem) and by the
// general rules.
func BenchmarkReadItem(b *testing.B) {
	text := "    - matcher: terminal\n      command: /home/u/.hermes/agent-hooks/hook-a.sh 0000003\n      timeout: 10"
	for name, read := range map[string]func(string, int, *nodeArena) (*yaml.Node, int, bool){"flat": readItem, "general": readItemGeneral} {
		b.Run(name, func(b *testing.B) {
			a := &nodeArena{all: true}
			for b.Loop() {
				a.reset()
				if _, _, ok := read(text, 7, a); !ok {
					b.Fatal("not read")
				}
			}
		})
	}
}
