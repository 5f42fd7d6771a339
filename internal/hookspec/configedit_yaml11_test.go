package hookspec

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/yaml11_scalars.golden")

// yaml11Scalars has a member of every class of plain scalar the agent's
// YAML 1.1 reader does not read as that string (SPEC §14, §18), and a few
// that it does.
var yaml11Scalars = []struct{ class, s string }{
	{"null", "null"}, {"null", "Null"}, {"null", "NULL"}, {"null", "~"},
	{"bool", "y"}, {"bool", "Y"}, {"bool", "yes"}, {"bool", "Yes"}, {"bool", "YES"},
	{"bool", "n"}, {"bool", "N"}, {"bool", "no"}, {"bool", "No"}, {"bool", "NO"},
	{"bool", "true"}, {"bool", "True"}, {"bool", "TRUE"}, {"bool", "false"}, {"bool", "False"}, {"bool", "FALSE"},
	{"bool", "on"}, {"bool", "On"}, {"bool", "ON"}, {"bool", "off"}, {"bool", "Off"}, {"bool", "OFF"},
	{"int", "0"}, {"int", "123"}, {"int", "-17"}, {"int", "+5"}, {"int", "017"}, {"int", "0x1F"}, {"int", "0b101"},
	{"int", "1_000"}, {"int", "1:20"}, {"int", "190:20:30"},
	{"float", "1.5"}, {"float", "1.0e3"}, {"float", "1.e3"}, {"float", ".5"}, {"float", "-.inf"}, {"float", ".inf"},
	{"float", ".NaN"}, {"float", "1:20.5"}, {"float", "6.8523015e+5"}, {"float", "1_0.5"},
	{"timestamp", "2001-12-14"}, {"timestamp", "2001-12-14t21:59:43.10-05:00"}, {"timestamp", "2001-12-14 21:59:43.10 -5"},
	{"timestamp", "2001-1-2T3:04:05Z"},
	{"value", "="}, {"merge", "<<"},
	{"string", "1e3"}, {"string", "yes please"}, {"string", "guard.sh"}, {"string", "0o17"}, {"string", "2001-12-14x"},
}

// TestAddYAML11ScalarsReadBack: every such scalar added as a command or as
// a matcher is written so that the agent's reader (this tool's §14 reader)
// reads back exactly that string; the lines written are golden.
func TestAddYAML11ScalarsReadBack(t *testing.T) {
	var golden strings.Builder
	for _, c := range yaml11Scalars {
		if got := config.PlainClass(c.s); got != c.class {
			t.Errorf("PlainClass(%q) = %s, want %s", c.s, got, c.class)
		}
		for _, as := range []string{"command", "matcher"} {
			h := NewHook{Event: "pre_tool_call", Command: c.s}
			if as == "matcher" {
				h = NewHook{Event: "pre_tool_call", Command: "guard.sh", Matcher: c.s}
			}
			for _, base := range []string{"", "hooks:\n  pre_tool_call:\n    - {command: other.sh}\n", "hooks:\n  pre_tool_call:\n    - command: 'other.sh'\n"} {
				out, err := AddToConfig([]byte(base), h, config.MapEnv(nil))
				if err != nil {
					t.Errorf("%s %q: %v", as, c.s, err)
					continue
				}
				if base == "" {
					fmt.Fprintf(&golden, "%-9s %-7s %-32q %s", c.class, as, c.s, strings.ReplaceAll(strings.TrimPrefix(string(out), "hooks:\n  pre_tool_call:\n"), "\n", "⏎"))
					golden.WriteString("\n")
				}
				specs := readBack(t, out)
				if len(specs) == 0 {
					t.Errorf("%s %q: the agent's reader finds no hook in\n%s", as, c.s, out)
					continue
				}
				s := specs[len(specs)-1]
				if as == "command" && s.Command != c.s {
					t.Errorf("command %q read back as %q from\n%s", c.s, s.Command, out)
				}
				if as == "matcher" && s.matcherText != c.s {
					t.Errorf("matcher %q read back as %q from\n%s", c.s, s.matcherText, out)
				}
			}
		}
	}
	path := filepath.Join("testdata", "yaml11_scalars.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-golden)", err)
	}
	if string(want) != golden.String() {
		t.Errorf("written lines differ from %s (run with -update-golden to accept):\n%s", path, golden.String())
	}
}

func readBack(t *testing.T, src []byte) []Spec {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(path, config.MapEnv(nil))
	if err != nil {
		t.Fatalf("the agent's reader refuses\n%s\n%v", src, err)
	}
	return Parse(f, nil, config.MapEnv(nil)).ForEvent("pre_tool_call")
}
