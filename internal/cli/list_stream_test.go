package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/iostreams"
)

// TestStreamShellHooksAsRendered: list's streamed rendering (inspected and
// rendered a chunk at a time on several goroutines) writes what inspecting
// every hook and rendering the list writes, byte for byte, colours on and
// off: events in order, an event's hooks across several chunks, approved
// and unapproved hooks, a modified script, a missing one, a matcher, a
// duplicate and an unknown field.
func TestStreamShellHooksAsRendered(t *testing.T) {
	home := bigConfigHome(t, 3*streamChunk+17)
	// A few hooks the generated ones do not have, at the end of the first
	// event.
	extra := "    - command: " + home + "/missing.sh\n" +
		"    - command: " + home + "/hook-b.sh x\n      timeout: 3\n      fail_closed: true\n" +
		"    - command: " + home + "/hook-b.sh x\n" +
		"    - command: " + home + "/hook-a.sh y\n      timout: 4\n" +
		"    - command: echo hi | cat\n"
	cfgPath := filepath.Join(home, "config.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Replace(string(cfg), "  post_tool_call:\n", extra+"  post_tool_call:\n", 1)
	if err := os.WriteFile(cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	// hook-b.sh changes after its approvals: those hooks are blocked.
	if err := os.WriteFile(filepath.Join(home, "hook-b.sh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := hooks.LoadWithAllowlist(config.Request{HomeFlag: home, UserHome: home, Env: config.MapEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := s.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Parsed.Specs); n < 3*streamChunk {
		t.Fatalf("only %d hooks parsed", n)
	}
	for _, colour := range []bool{false, true} {
		ios, _, _, _ := iostreams.Test()
		ios.SetTTY(colour)
		cs := ios.Colors()
		var want, got bytes.Buffer
		renderShellHooks(&want, cs, s.InspectAll(s.Parsed.Specs, list))
		streamShellHooks(&got, cs, s, list)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("colour %v: streamed output differs from the rendered list at byte %d:\n%s",
				colour, firstDiff(got.Bytes(), want.Bytes()), snippet(got.Bytes(), want.Bytes()))
		}
		if colour {
			continue
		}
		for _, w := range []string{"✓ allowed", "not allowlisted", "modified", "missing.sh", "fail_closed: true", "\n  pre_tool_call\n", "matcher: terminal"} {
			if !strings.Contains(want.String(), w) {
				t.Errorf("colour %v: the list shows no %q: the test does not cover it", colour, w)
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func snippet(got, want []byte) string {
	i := firstDiff(got, want)
	cut := func(s []byte) string { return string(s[max(0, i-200):min(len(s), i+200)]) }
	return fmt.Sprintf("streamed:\n%s\n\nrendered:\n%s", cut(got), cut(want))
}
