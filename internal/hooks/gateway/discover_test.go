package gateway

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/suggest"
)

const okPy = "def handle(event_type, context):\n    return None\n"

func TestDiscoverFolder(t *testing.T) {
	tests := []struct {
		name        string
		f           folder
		wantName    string
		wantEvents  []string
		wantEnabled bool
		wantLoaded  bool
		wantHandler string
		problems    []string // each must be a substring of one problem, same count
		warnings    []string // same, for warnings
		wantDesc    string
	}{
		{name: "valid", f: folder{yaml: "name: greeter\ndescription: says hi\nevents: [agent:start, agent:end]\n", py: okPy},
			wantName: "greeter", wantDesc: "says hi", wantEvents: []string{"agent:start", "agent:end"},
			wantEnabled: true, wantLoaded: true, wantHandler: HandlerPy},
		{name: "defaults", f: folder{yaml: "events:\n  - session:start\n", py: okPy},
			wantName: "defaults", wantEvents: []string{"session:start"}, wantEnabled: true, wantLoaded: true, wantHandler: HandlerPy},
		{name: "no manifest", f: folder{py: okPy},
			wantName: "no manifest", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"missing HOOK.yaml"}},
		{name: "yml spelling", f: folder{py: okPy},
			wantName: "yml spelling", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"missing HOOK.yaml (found HOOK.yml: rename it to HOOK.yaml)"}},
		{name: "no handler", f: folder{yaml: "events: [agent:start]\n"},
			wantName: "no handler", wantEvents: []string{"agent:start"}, wantEnabled: true,
			problems: []string{"missing handler.py (or an executable handler)"}},
		{name: "nothing", f: folder{},
			wantName: "nothing", wantEvents: []string{}, wantEnabled: true,
			problems: []string{"missing HOOK.yaml", "missing handler.py (or an executable handler)"}},
		{name: "handler not executable", f: folder{yaml: "events: [agent:start]\n", exe: "#!/bin/sh\n", exeMode: 0o644},
			wantName: "handler not executable", wantEvents: []string{"agent:start"}, wantEnabled: true,
			problems: []string{"handler is not executable (chmod +x it)"}},
		{name: "executable handler", f: folder{yaml: "events: [agent:start]\n", exe: "#!/bin/sh\n"},
			wantName: "executable handler", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true,
			wantHandler: HandlerExec},
		{name: "handler.py wins", f: folder{yaml: "events: [agent:start]\n", py: okPy, exe: "#!/bin/sh\n"},
			wantName: "handler.py wins", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true,
			wantHandler: HandlerPy},
		{name: "invalid yaml", f: folder{yaml: "name: x\nevents:\n  - agent:start\n bad: [\n", py: okPy},
			wantName: "invalid yaml", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml (line 4): did not find expected key"}},
		{name: "tab indent", f: folder{yaml: "name: x\n\tevents: [a]\n", py: okPy},
			wantName: "tab indent", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml (line 2): "}},
		{name: "list not mapping", f: folder{yaml: "# hooks\n- agent:start\n", py: okPy},
			wantName: "list not mapping", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml (line 2): expected a mapping (name, description, events, enabled), got a list"}},
		{name: "scalar not mapping", f: folder{yaml: "agent:start\n", py: okPy},
			wantName: "scalar not mapping", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml (line 1): expected a mapping (name, description, events, enabled), got a string"}},
		{name: "empty manifest", f: folder{yaml: "# nothing yet\n", py: okPy},
			wantName: "empty manifest", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml: the file is empty"}},
		{name: "no events key", f: folder{yaml: "name: quiet\n", py: okPy},
			wantName: "quiet", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"no events declared"}},
		{name: "empty events", f: folder{yaml: "events: []\n", py: okPy},
			wantName: "empty events", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"no events declared"}},
		{name: "null events", f: folder{yaml: "events:\n", py: okPy},
			wantName: "null events", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"no events declared"}},
		{name: "mapping events", f: folder{yaml: "events: {agent:start: 1}\n", py: okPy},
			wantName: "mapping events", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"invalid HOOK.yaml (line 1): events must be a list of event names, got a mapping"}},
		{name: "scalar events", f: folder{yaml: "events: agent:start\n", py: okPy},
			wantName: "scalar events", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true,
			wantHandler: HandlerPy, warnings: []string{`events (line 1) is a single string, not a list; treated as ["agent:start"]`}},
		{name: "non-string events", f: folder{yaml: "events: [agent:start, 3, {a: b}, '', agent:start]\n", py: okPy},
			wantName: "non-string events", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true,
			wantHandler: HandlerPy, warnings: []string{"a number is not an event name", "a mapping is not an event name", "empty event name dropped"}},
		{name: "only non-string events", f: folder{yaml: "events: [1, true]\n", py: okPy},
			wantName: "only non-string events", wantEvents: []string{}, wantEnabled: true, wantHandler: HandlerPy,
			problems: []string{"no events declared"}, warnings: []string{"a number is not", "a boolean is not"}},
		{name: "disabled", f: folder{yaml: "events: [agent:start]\nenabled: false\n", py: okPy},
			wantName: "disabled", wantEvents: []string{"agent:start"}, wantHandler: HandlerPy},
		{name: "disabled yaml 1.1 word", f: folder{yaml: "events: [agent:start]\nenabled: no\n", py: okPy},
			wantName: "disabled yaml 1.1 word", wantEvents: []string{"agent:start"}, wantHandler: HandlerPy},
		{name: "enabled odd value", f: folder{yaml: "events: [agent:start]\nenabled: 0\n", py: okPy},
			wantName: "enabled odd value", wantEvents: []string{"agent:start"}, wantHandler: HandlerPy,
			warnings: []string{"enabled (line 2) should be true or false, got a number; treated as false"}},
		{name: "unknown event", f: folder{yaml: "events: [agent:strat, session:start]\n", py: okPy},
			wantName: "unknown event", wantEvents: []string{"agent:strat", "session:start"}, wantEnabled: true,
			wantLoaded: true, wantHandler: HandlerPy,
			warnings: []string{`unknown event "agent:strat" (did you mean "agent:start"?); registered anyway`}},
		{name: "unknown far from all", f: folder{yaml: "events: [zzzzqqqq]\n", py: okPy},
			wantName: "unknown far from all", wantEvents: []string{"zzzzqqqq"}, wantEnabled: true,
			wantLoaded: true, wantHandler: HandlerPy,
			warnings: []string{`unknown event "zzzzqqqq"; registered anyway`}},
		{name: "wildcards", f: folder{yaml: "events: [agent:*, command:model, command:*]\n", py: okPy},
			wantName: "wildcards", wantEvents: []string{"agent:*", "command:model", "command:*"}, wantEnabled: true,
			wantLoaded: true, wantHandler: HandlerPy},
		{name: "bare star", f: folder{yaml: "events: ['*']\n", py: okPy},
			wantName: "bare star", wantEvents: []string{"*"}, wantEnabled: true, wantLoaded: true, wantHandler: HandlerPy,
			warnings: []string{`event "*" never matches`}},
		{name: "bom", f: folder{yaml: "\ufeffname: bommed\nevents: [agent:start]\n", py: okPy},
			wantName: "bommed", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true, wantHandler: HandlerPy},
		{name: "name not a string", f: folder{yaml: "name: [a]\nevents: [agent:start]\n", py: okPy},
			wantName: "name not a string", wantEvents: []string{"agent:start"}, wantEnabled: true, wantLoaded: true,
			wantHandler: HandlerPy, warnings: []string{"HOOK.yaml name (line 1) must be a string, got a list; ignored"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := writeFolder(t, root, tt.name, tt.f)
			if tt.name == "yml spelling" {
				if err := os.WriteFile(filepath.Join(dir, "HOOK.yml"), []byte("events: [agent:start]\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			hooks := Discover(root, known)
			if len(hooks) != 1 {
				t.Fatalf("Discover found %d hooks, want 1", len(hooks))
			}
			h := hooks[0]
			if h.Name != tt.wantName || h.Dir != dir || h.Description != tt.wantDesc {
				t.Errorf("name, dir, description = %q, %q, %q; want %q, %q, %q",
					h.Name, h.Dir, h.Description, tt.wantName, dir, tt.wantDesc)
			}
			if !reflect.DeepEqual(h.Events, tt.wantEvents) {
				t.Errorf("Events = %q, want %q", h.Events, tt.wantEvents)
			}
			if h.Enabled != tt.wantEnabled || h.Loaded != tt.wantLoaded || h.Handler != tt.wantHandler {
				t.Errorf("Enabled, Loaded, Handler = %v, %v, %q; want %v, %v, %q",
					h.Enabled, h.Loaded, h.Handler, tt.wantEnabled, tt.wantLoaded, tt.wantHandler)
			}
			checkMessages(t, "problems", h.Problems, tt.problems)
			checkMessages(t, "warnings", h.Warnings, tt.warnings)
			if got := len(h.Diagnostics()); got != len(h.Problems)+len(h.Warnings) {
				t.Errorf("%d diagnostics for %d problems and %d warnings", got, len(h.Problems), len(h.Warnings))
			}
		})
	}
}

func checkMessages(t *testing.T, what string, got, want []string) {
	t.Helper()
	if got == nil {
		t.Errorf("%s is nil; list --json needs []", what)
	}
	if len(got) != len(want) {
		t.Errorf("%s = %q, want %d matching %q", what, got, len(want), want)
		return
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("%s[%d] = %q, want it to contain %q", what, i, got[i], want[i])
		}
	}
}

func TestDiscoverInvalidYAMLLineInDiagnostic(t *testing.T) {
	root := t.TempDir()
	dir := writeFolder(t, root, "broken", folder{yaml: "name: x\nevents:\n  - agent:start\n bad: [\n", py: okPy})
	d := Discover(root, known)[0].Diagnostics()
	if len(d) != 1 || d[0].Line != 4 || d[0].Level != "error" || d[0].File != filepath.Join(dir, ManifestName) {
		t.Fatalf("diagnostics = %+v, want one error at %s line 4", d, filepath.Join(dir, ManifestName))
	}
}

func TestDiscoverOrderAndSkips(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"b", "a", "C", ".git", "_x"} {
		writeFolder(t, root, name, folder{yaml: "events: [agent:start]\n", py: okPy})
	}
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("not a hook"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	got := names(Discover(root, known))
	want := []string{"C", "_x", "a", "b", "linked"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Discover order = %q, want %q", got, want)
	}
}

func TestDiscoverMissingAndUnreadableDir(t *testing.T) {
	if hooks := Discover(filepath.Join(t.TempDir(), "nope"), known); hooks != nil {
		t.Errorf("missing hooks dir: got %v, want nil", hooks)
	}
	file := filepath.Join(t.TempDir(), "hooks")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hooks := Discover(file, known)
	if len(hooks) != 1 || hooks[0].Loaded || len(hooks[0].Problems) != 1 ||
		!strings.Contains(hooks[0].Problems[0], "cannot read the hooks folder") {
		t.Errorf("hooks dir is a file: got %+v, want one broken entry saying so", hooks)
	}
}

func TestClosestIsDifflibLike(t *testing.T) {
	tests := []struct {
		word string
		want string
	}{
		{"agent:strat", "agent:start"},
		{"session:starts", "session:start"},
		// Expected values are difflib.get_close_matches(word, known, 1, 0.6).
		{"command", "command:*"},
		{"agent", "agent:end"},
		{"zzzzqqqq", ""},
		{"xyz", ""},
		{"reaction:add", "reaction:added"},
	}
	for _, tt := range tests {
		if got := suggest.Closest(tt.word, known); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
