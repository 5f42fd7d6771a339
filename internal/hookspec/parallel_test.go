package hookspec

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/catalog"
	"github.com/hermes-hooks/hermes/internal/config"
)

// TestParseParallelAsSerial: a long event list read on several goroutines
// gives what reading it one entry at a time gives: the same specs, and the
// same diagnostics in the same order (warnings of each entry, then the
// note on a duplicate), across chunk boundaries.
func TestParseParallelAsSerial(t *testing.T) {
	var b strings.Builder
	b.WriteString("hooks:\n")
	for _, ev := range []string{"pre_tool_call", "on_session_start"} {
		fmt.Fprintf(&b, "  %s:\n", ev)
		for i := range 9000 {
			switch i % 11 {
			case 0:
				fmt.Fprintf(&b, "    - command: /h/x.sh %d\n      timout: 3\n", i) // misspelled
			case 1:
				fmt.Fprintf(&b, "    - command: /h/x.sh %d\n      timeout: -1\n", i) // bad timeout
			case 2:
				b.WriteString("    - command: /h/dup.sh\n      timeout: 5\n") // duplicates
			case 3:
				fmt.Fprintf(&b, "    - matcher: 'terminal|(x'\n      command: /h/x.sh %d\n", i) // bad regex; on a non-tool event too
			case 4:
				fmt.Fprintf(&b, "    - command: echo ~/x %d\n", i) // a "~" left literal
			case 5:
				b.WriteString("    - timeout: 3\n") // no command
			case 6:
				fmt.Fprintf(&b, "    - command: ${HOME}/x.sh %d\n      fail_closed: maybe\n", i)
			default:
				fmt.Fprintf(&b, "    - matcher: terminal\n      command: /h/x.sh %d\n      timeout: %d\n", i, i%40)
			}
		}
	}
	env := map[string]string{"HOME": "/home/u"}
	f, _ := parseYAML(t, b.String(), env)
	parse := func(min int) *Parsed {
		defer func(old int) { parallelEntriesMin = old }(parallelEntriesMin)
		parallelEntriesMin = min
		return Parse(f, catalog.NewCatalogue(f.Settings.ExtraEvents), config.MapEnv(env))
	}
	serial, parallel := parse(1<<62), parse(1)
	if len(serial.Specs) < 10000 || len(serial.Diagnostics) < 10000 {
		t.Fatalf("the config gave only %d specs and %d diagnostics", len(serial.Specs), len(serial.Diagnostics))
	}
	if !reflect.DeepEqual(serial.Diagnostics, parallel.Diagnostics) {
		for i := range min(len(serial.Diagnostics), len(parallel.Diagnostics)) {
			if !reflect.DeepEqual(serial.Diagnostics[i], parallel.Diagnostics[i]) {
				t.Fatalf("diagnostic %d: serial %+v, parallel %+v", i, serial.Diagnostics[i], parallel.Diagnostics[i])
			}
		}
		t.Fatalf("%d diagnostics read serially, %d in parallel", len(serial.Diagnostics), len(parallel.Diagnostics))
	}
	if len(serial.Specs) != len(parallel.Specs) {
		t.Fatalf("%d specs read serially, %d in parallel", len(serial.Specs), len(parallel.Specs))
	}
	for i := range serial.Specs {
		if !reflect.DeepEqual(serial.Specs[i], parallel.Specs[i]) {
			t.Fatalf("spec %d: serial %+v, parallel %+v", i, serial.Specs[i], parallel.Specs[i])
		}
	}
}

// TestParseSizesSpecsOnce: the specs of every event are given their room
// at once, not event by event (each growth copied every spec so far): the
// list ends as long as its hooks, within rounding. Events that are
// unknown or serve no shell hook count for nothing.
func TestParseSizesSpecsOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("hooks:\n")
	for _, ev := range []string{"pre_tool_call", "post_tool_call", "on_session_start", "no_such_event"} {
		fmt.Fprintf(&b, "  %s:\n", ev)
		for i := range 1000 {
			fmt.Fprintf(&b, "    - command: /h/x.sh %d\n", i)
		}
	}
	f, _ := parseYAML(t, b.String(), nil)
	p := Parse(f, catalog.NewCatalogue(nil), config.MapEnv(nil))
	if n, c := len(p.Specs), cap(p.Specs); n != 3000 || c > n+n/100 {
		t.Fatalf("%d specs in room for %d; want 3000 in room for at most 1%% more", n, c)
	}
}
