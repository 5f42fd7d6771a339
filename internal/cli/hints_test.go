package cli

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pasted runs a printed hint through sh -c, as a user pasting it would,
// with hermes a shell function printing its arguments, and returns them.
func pasted(t *testing.T, hint string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `hermes() { for a in "$@"; do printf '%s\0' "$a"; done; }; `+hint).Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", hint, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func hintIn(t *testing.T, text, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no hint matching %s in\n%s", re, text)
	}
	return m[1]
}

// TestHintsCanBePasted: every suggested command is quoted once, correctly,
// for a POSIX shell (SPEC §18): pasted, it hands hermes exactly the command
// of the hook.
func TestHintsCanBePasted(t *testing.T) {
	for _, cmd := range []string{
		`/bin/echo "it's"`,
		`/bin/echo "a b" $HOME`,
		"/bin/echo ${HERMES_HOME}/x",
		"/bin/echo `id` ; rm -rf ~",
		"/bin/echo 'single' \"double\" \\back",
	} {
		h := newHarness(t)
		if code := h.run("hooks", "add", "pre_tool_call", cmd); code != 0 {
			t.Fatalf("add %q: exit %d: %s", cmd, code, h.err)
		}
		hint := hintIn(t, h.out.String(), `then run  (hermes hooks accept .*)\n`)
		want := []string{"hooks", "accept", cmd, "--event", "pre_tool_call"}
		if got := pasted(t, hint); !slices.Equal(got, want) {
			t.Errorf("add %q: pasted %q gives %q, want %q", cmd, hint, got, want)
		}
		h.run("hooks", "doctor")
		hint = hintIn(t, h.out.String(), `approve with: (hermes hooks accept .* --yes)\)`)
		if got := pasted(t, hint); !slices.Equal(got, append(want, "--yes")) {
			t.Errorf("doctor %q: pasted %q gives %q, want %q", cmd, hint, got, append(want, "--yes"))
		}
	}

	// new: the approve hint, and the add hint when the name is taken by an
	// edited script; a home whose path needs quoting.
	h := newHarness(t)
	if code := h.run("hooks", "new", "pre_tool_call", "guard"); code != 0 {
		t.Fatalf("new: exit %d: %s", code, h.err)
	}
	hint := hintIn(t, h.out.String(), `approve it when it does what you want:\n  (hermes hooks accept .*)\n`)
	if got := pasted(t, hint); len(got) != 5 || got[2] != h.home+"/agent-hooks/guard.sh" {
		t.Errorf("new: pasted %q gives %q", hint, got)
	}
	h.write(t, "agent-hooks/guard.sh", "#!/bin/sh\n# mine\n", 0o744)
	if code := h.run("hooks", "new", "pre_tool_call", "guard"); code != 1 {
		t.Fatalf("new over an edited script: exit %d: %s", code, h.err)
	}
	hint = hintIn(t, h.err.String(), `add it with: (hermes hooks add .*)\)`)
	want := []string{"hooks", "add", "pre_tool_call", "${HERMES_HOME}/agent-hooks/guard.sh"}
	if got := pasted(t, hint); !slices.Equal(got, want) {
		t.Errorf("new: pasted %q gives %q, want %q", hint, got, want)
	}
}
