package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/allowlist"
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
	s, list := loadHome(t, home)
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

// loadHome loads the config and reads the allowlist of home, as list does.
func loadHome(t *testing.T, home string) (*hooks.Setup, *allowlist.List) {
	t.Helper()
	s, err := hooks.LoadWithAllowlist(config.Request{HomeFlag: home, UserHome: home, Env: config.MapEnv(nil)})
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := s.Store.Read()
	if err != nil {
		t.Fatal(err)
	}
	return s, list
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

// TestStreamListJSONAsEncoded: list --json's streamed hooks (inspected and
// encoded a chunk at a time on several goroutines, into the document's
// empty list) are what encoding the whole document writes, byte for
// byte: hooks across several chunks, then the disabled ones; approved,
// unapproved, modified, missing and unparsable hooks; a script's sha256
// as the lock records it; diagnostics after. With no hook, or disabled
// hooks alone, the list is written as it is.
func TestStreamListJSONAsEncoded(t *testing.T) {
	home := bigConfigHome(t, 2*streamChunk+5)
	extra := "    - command: " + home + "/missing.sh\n" +
		"    - command: " + home + "/hook-b.sh x\n      timeout: 3\n      fail_closed: true\n" +
		"    - command: \"" + home + "/hook-a.sh 'unclosed\"\n" +
		"    - command: echo hi | cat\n      timout: 4\n"
	disabled := "hooks_disabled:\n  pre_tool_call:\n    - command: " + home + "/hook-a.sh off\n    - command: /usr/bin/true\n      matcher: terminal\n"
	cfgPath := filepath.Join(home, "config.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "hook-b.sh"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, body string }{
		{"many", strings.Replace(string(cfg), "  post_tool_call:\n", extra+"  post_tool_call:\n", 1) + disabled},
		{"none", "model: x\n"},
		{"disabled alone", "hooks: {}\n" + disabled},
	} {
		if err := os.WriteFile(cfgPath, []byte(tt.body), 0o600); err != nil {
			t.Fatal(err)
		}
		s, list := loadHome(t, home)
		doc := listJSON{whereJSON: where(s.Loc), ShellHooks: []shellHookJSON{}, GatewayHooks: []gatewayHookJSON{},
			OutboundWebhooks: []webhookJSON{}, Diagnostics: s.Diagnostics()}
		whole := doc
		for _, h := range append(s.ShellHooks(list), s.InspectAll(s.Parsed.Disabled, list)...) {
			j := shellHookToJSON(h)
			// The lock's sha256: the script's, unless a system file of
			// its code.
			system := map[string]bool{}
			for _, f := range h.Code.Files {
				system[f.Path] = f.System
			}
			if fp := s.Fingerprints.Of(h.Script); h.HasScriptFile() && !system[h.Script] && fp.Err == nil {
				j.SHA256 = &fp.SHA256
			}
			whole.ShellHooks = append(whole.ShellHooks, j)
		}
		var want, got bytes.Buffer
		if err := writeJSON(&want, whole); err != nil {
			t.Fatal(err)
		}
		if err := streamListJSON(&got, doc, s, list); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%s: streamed JSON differs from the encoded document at byte %d:\n%s",
				tt.name, firstDiff(got.Bytes(), want.Bytes()), snippet(got.Bytes(), want.Bytes()))
		}
		if tt.name != "many" {
			continue
		}
		if len(whole.ShellHooks) < 2*streamChunk || len(s.Parsed.Disabled) != 2 || len(doc.Diagnostics) == 0 {
			t.Fatalf("%d hooks, %d disabled, %d diagnostics: the test does not cover them", len(whole.ShellHooks), len(s.Parsed.Disabled), len(doc.Diagnostics))
		}
		for _, w := range []string{`"approved": true`, `"drift": "modified"`, `"sha256": null`, `"disabled": true`, `"executable": false`, `"matcher": "terminal"`} {
			if !strings.Contains(want.String(), w) {
				t.Errorf("the document holds no %s: the test does not cover it", w)
			}
		}
	}
}
