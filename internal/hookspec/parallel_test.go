package hookspec

import (
	"fmt"
	"hash/maphash"
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
			case 7:
				b.WriteString("    - matcher: terminal\n      command: /h/dup.sh\n") // duplicates, of another hook than case 2's
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
	sameParse(t, "in parallel", serial, parallel)
	// Registered alike when every pair's hash clashes with others'.
	defer func(old func(string, string) uint64) { pairHash = old }(pairHash)
	seed := maphash.MakeSeed()
	for name, clash := range map[string]func(matcher, command string) uint64{
		"of pairs with one command": func(_, command string) uint64 { return maphash.String(seed, command) },
		"of most pairs":             func(_, command string) uint64 { return uint64(len(command)) % 3 },
	} {
		pairHash = clash
		sameParse(t, "serially, hashes "+name+" clashing", serial, parse(1<<62))
		sameParse(t, "in parallel, hashes "+name+" clashing", serial, parse(1))
	}
}

// sameParse fails when got is not want, spec for spec and diagnostic for
// diagnostic.
func sameParse(t *testing.T, how string, want, got *Parsed) {
	t.Helper()
	if !reflect.DeepEqual(want.Diagnostics, got.Diagnostics) {
		for i := range min(len(want.Diagnostics), len(got.Diagnostics)) {
			if !reflect.DeepEqual(want.Diagnostics[i], got.Diagnostics[i]) {
				t.Fatalf("diagnostic %d: read %s %+v, want %+v", i, how, got.Diagnostics[i], want.Diagnostics[i])
			}
		}
		t.Fatalf("%d diagnostics read %s, want %d", len(got.Diagnostics), how, len(want.Diagnostics))
	}
	if len(want.Specs) != len(got.Specs) {
		t.Fatalf("%d specs read %s, want %d", len(got.Specs), how, len(want.Specs))
	}
	for i := range want.Specs {
		if !reflect.DeepEqual(want.Specs[i], got.Specs[i]) {
			t.Fatalf("spec %d: read %s %+v, want %+v", i, how, got.Specs[i], want.Specs[i])
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
