package hookspec

import (
	"strings"
	"testing"
)

func TestExpandHome(t *testing.T) {
	for in, want := range map[string]string{
		"~":            "/h",
		"~/x.sh a":     "/h/x.sh a",
		"${HOME}/x.sh": "/h/x.sh",
		"~bob/x.sh":    "~bob/x.sh", // another user's home: not ours to guess
		"sh ~/x.sh":    "sh ~/x.sh", // only a leading ~ is the shell's
		"$HOME/x.sh":   "$HOME/x.sh",
		"/h/x.sh":      "/h/x.sh",
		"${HOMEDIR}/x": "${HOMEDIR}/x",
		"~x":           "~x",
		"${HOME}":      "/h",
	} {
		if got := ExpandHome(in, "/h"); got != want {
			t.Errorf("ExpandHome(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTyped(t *testing.T) {
	_, p := parseYAML(t, `
hooks:
  pre_tool_call:
    - command: ~/a.sh
    - command: "${HOME}/b.sh --x"
    - command: ~/c.sh
    - command: ${HOME}/c.sh
  on_session_start:
    - command: ~/a.sh
    - command: /h/d.sh
`, map[string]string{"HOME": "/h"})
	type res struct {
		exact bool
		found string
	}
	summary := func(typed, event string) res {
		exact, found, configured := Typed(p.Specs, typed, event, "/h")
		var parts []string
		for i, s := range found {
			parts = append(parts, s.Event+"="+configured[i])
		}
		return res{exact, strings.Join(parts, " ")}
	}
	for _, tt := range []struct {
		typed, event string
		want         res
	}{
		{"~/a.sh", "", res{exact: true}},
		{"/h/a.sh", "", res{found: "pre_tool_call=~/a.sh on_session_start=~/a.sh"}},
		{"/h/a.sh", "on_session_start", res{found: "on_session_start=~/a.sh"}},
		// ${HOME} in the config is expanded already: the typed path names it.
		{"/h/b.sh --x", "", res{exact: true}},
		{"~/b.sh --x", "", res{found: "pre_tool_call=${HOME}/b.sh --x"}},
		// Two entries written differently: ambiguous, both named.
		{"/h/c.sh", "", res{exact: true}},
		{"~/d.sh", "", res{found: "on_session_start=/h/d.sh"}},
		// Arguments must match too; another home never matches.
		{"/h/a.sh --more", "", res{}},
		{"/other/a.sh", "", res{}},
		{"/h/x.sh", "", res{}},
	} {
		if got := summary(tt.typed, tt.event); got != tt.want {
			t.Errorf("Typed(%q, %q) = %+v, want %+v", tt.typed, tt.event, got, tt.want)
		}
	}
}

func TestMisspelledKey(t *testing.T) {
	for key, want := range map[string]string{
		"matchr": "matcher", "timout": "timeout", "fail-closed": "fail_closed", "Fail_Closed": "fail_closed",
		"FAILCLOSED": "fail_closed", "comand": "command", "replya": "replay", "Matcher": "matcher",
		"match": "matcher", "tiemout": "timeout",
		// Known, or far from every known key: no warning.
		"matcher": "", "failClosed": "", "replay": "", "note": "", "owner": "", "cmd": "", "time": "",
	} {
		if got := MisspelledKey(key); got != want {
			t.Errorf("MisspelledKey(%q) = %q, want %q", key, got, want)
		}
	}
}
