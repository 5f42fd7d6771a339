package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadNoPath(t *testing.T) {
	f, err := Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Hooks != nil || len(f.Diagnostics) != 0 || !reflect.DeepEqual(f.Settings, DefaultSettings()) {
		t.Errorf("Load(\"\") = %+v, want an empty file with default settings", f)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.yaml")
	_, err := Load(path, nil)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error = %v, want a not-exist error naming %s", err, path)
	}
}

func TestLoadSyntaxError(t *testing.T) {
	tests := []struct {
		content string
		line    int
		msg     string
	}{
		// Parser errors point at the first line of the enclosing block.
		{"hooks:\n  pre_tool_call:\n    - command: a\n   bad: [\n", 2, "did not find expected key"},
		{"a:\n  b: 1\n c: 2\n", 3, "did not find expected key"},
		{"a: [1, 2\nb: 3\n", 2, "did not find expected ',' or ']'"},
		{"x: 1\ny:\n  z: *nope\n", 3, "unknown anchor 'nope'"},
		{"a: 1\n\tb: 2\n", 2, "tab character"},
		{"a: 1\nb: 2\nc 2\nd: 3\n", 3, "could not find expected ':'"},
		{"hooks: {pre_tool_call: [}\n", 1, "did not find expected node content"},
		{"a: \x01\n", 0, "control characters"}, // a reader error has no line
		{"a: 1\n---\nb: [\n", 3, ""},           // in a second document: still reported
	}
	for _, tt := range tests {
		path := writeConfig(t, tt.content)
		_, err := Load(path, nil)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: error = %v, want *SyntaxError", tt.content, err)
		}
		if se.Path != path || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: got %+v, want line %d, message containing %q", tt.content, se, tt.line, tt.msg)
		}
		prefix := path + ":" + strconv.Itoa(tt.line) + ": invalid YAML: "
		if tt.line == 0 {
			prefix = path + ": invalid YAML: "
		}
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("Error() = %q, want prefix %q", err.Error(), prefix)
		}
	}
}

func TestLoadShapes(t *testing.T) {
	tests := []struct {
		name      string
		content   string
		hooksLine int    // 0: no hooks node
		diag      string // substring of the only diagnostic; "" = none
		diagLine  int
	}{
		{name: "empty file", content: ""},
		{name: "only comments", content: "# nothing\n"},
		{name: "null document", content: "~\n"},
		{name: "BOM", content: "\ufeffhooks:\n  pre_tool_call: []\n", hooksLine: 1},
		{name: "top level list", content: "- a\n- b\n", diag: "top level must be a mapping", diagLine: 1},
		{name: "top level scalar", content: "hello\n", diag: `got "hello"`, diagLine: 1},
		{name: "hooks on line 3", content: "a: 1\n\nhooks:\n  x: 1\n", hooksLine: 3},
		{name: "hooks through an alias", content: "base: &b {pre_tool_call: []}\nhooks: *b\n", hooksLine: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Load(writeConfig(t, tt.content), nil)
			if err != nil {
				t.Fatal(err)
			}
			if (f.Hooks != nil) != (tt.hooksLine != 0) || f.HooksKeyLine != tt.hooksLine {
				t.Errorf("Hooks = %v at line %d, want line %d", f.Hooks, f.HooksKeyLine, tt.hooksLine)
			}
			if f.Hooks != nil && f.Hooks.Kind == 0 {
				t.Errorf("Hooks is not a resolved node: %+v", f.Hooks)
			}
			if tt.diag == "" {
				if len(f.Diagnostics) != 0 {
					t.Errorf("diagnostics = %v, want none", f.Diagnostics)
				}
				return
			}
			if len(f.Diagnostics) != 1 || !strings.Contains(f.Diagnostics[0].Message, tt.diag) ||
				f.Diagnostics[0].Line != tt.diagLine || f.Diagnostics[0].File != f.Path {
				t.Errorf("diagnostics = %v, want one containing %q at line %d", f.Diagnostics, tt.diag, tt.diagLine)
			}
		})
	}
}

// Files the agent's reader refuses as a whole (SPEC §14): Load fails with a
// RefusedError naming the file and the line, so no command acts on a config
// the agent would ignore.
func TestLoadRefused(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
		reason  string
	}{
		{"duplicate top-level key", "model: a\nhooks: {}\nmodel: b\n", 3, `duplicate key "model" (first at line 1)`},
		{"duplicate event", "hooks:\n  pre_tool_call:\n    - command: a\n  pre_tool_call:\n    - command: b\n", 4, `duplicate key "pre_tool_call" (first at line 2)`},
		{"duplicate field in an entry", "hooks:\n  pre_tool_call:\n    - command: a\n      timeout: 5\n      timeout: 6\n", 5, `duplicate key "timeout" (first at line 4)`},
		{"duplicate deep in an unrelated key", "display:\n  theme: {a: 1, a: 2}\nhooks: {}\n", 2, `duplicate key "a"`},
		{"keys equal to Python: yes and true", "x:\n  yes: 1\n  true: 2\n", 3, `duplicate key "true" (first at line 2)`},
		{"keys equal to Python: 1 and 1.0", "x: {1: a, 1.0: b}\n", 1, `duplicate key "1.0"`},
		{"keys equal to Python: 0x10 and 16", "x: {0x10: a, 16: b}\n", 1, `duplicate key "16"`},
		{"quoted and plain key", "x: {\"a\": 1, a: 2}\n", 1, `duplicate key "a"`},
		{"duplicate merge key", "b: &b {x: 1}\nv:\n  <<: *b\n  <<: *b\n", 4, `duplicate key "<<"`},
		{"duplicate past the eighth key", "k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk1: 10\n", 10, `duplicate key "k1" (first at line 1)`},
		{"duplicate of the ninth key", "k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk9: 9\nk10: 10\nk9: 11\n", 11, `duplicate key "k9" (first at line 9)`},
		{"duplicate of the eighth key", "k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\nk7: 7\nk8: 8\nk8: 9\n", 9, `duplicate key "k8" (first at line 8)`},
		{"list as a key", "? [a, b]\n: 1\n", 1, "a list or mapping used as a key"},
		{"second document", "x: 1\n---\nhooks: {}\n", 2, "more than one YAML document"},
		{"second document, first one opened", "---\nx: 1\n---\n", 3, "more than one YAML document"},
		{"empty second document", "hooks: {}\n--- # nothing\n", 2, "more than one YAML document"},
		{"unknown local tag", "hooks:\n  pre_tool_call:\n    - command: !env GUARD\n", 3, "unknown tag !env"},
		{"python tag", "x: !!python/object:os.system ls\nhooks: {}\n", 1, "unknown tag !!python/object:os.system"},
		{"unknown tag on a mapping", "hooks: !Hooks\n  pre_tool_call: []\n", 1, "unknown tag !Hooks"},
		{"the first problem is named", "a: !x 1\na: 2\n", 1, "unknown tag !x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeConfig(t, tt.content)
			_, err := Load(path, nil)
			var r *RefusedError
			if !errors.As(err, &r) {
				t.Fatalf("Load = %v, want a RefusedError", err)
			}
			if r.Path != path || r.Line != tt.line || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("got %s:%d %q, want line %d %q", r.Path, r.Line, r.Reason, tt.line, tt.reason)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, fmt.Sprintf("%s:%d: ", path, tt.line)) || !strings.Contains(msg, "ignores all of it (it runs with no hooks)") {
				t.Errorf("message %q", msg)
			}
		})
	}
	// What the agent accepts is not refused: the same key in different
	// mappings, merge keys overridden, known and non-specific tags, a
	// document end marker, NaN keys (never equal in Python).
	for _, ok := range []string{
		"a: {x: 1}\nb: {x: 1}\n",
		"base: &b {x: 1}\nv: {<<: *b, x: 2}\n",
		"a: !!str 1\nb: ! x\nc: !!binary aGk=\nd: !!map {x: 1}\ne: !<tag:yaml.org,2002:str> s\nf: !!set {x}\n",
		"hooks: {}\n...\n",
		"x: {.nan: 1, .NaN: 2}\n",
		"x: {1: a, '1': b, 1.5: c}\n",
	} {
		if _, err := Load(writeConfig(t, ok), nil); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestLoadExpandsEnvironment(t *testing.T) {
	content := `hooks:
  pre_tool_call:
    - command: "${DIR}/guard.sh --user ${env:USER_NAME} ${UNSET}x"
      timeout: ${T}
      literal: '$DIR {DIR} ${1BAD}'
  ${DIR}: key not expanded
`
	env := MapEnv(map[string]string{"DIR": "/opt/h", "USER_NAME": "ann", "T": "30"})
	f, err := Load(writeConfig(t, content), env)
	if err != nil {
		t.Fatal(err)
	}
	stub := f.Hooks.Content[1].Content[0]
	if !IsStub(stub) {
		t.Fatal("the entry is not a stub: the fast reader did not take the file")
	}
	entry, exps := f.Item(nil, stub)
	if x, ok := exps[entry.Content[1]]; !ok || x.Written != "${DIR}/guard.sh --user ${env:USER_NAME} ${UNSET}x" {
		t.Errorf("command's expansion = %+v, %v", x, ok)
	}
	got := map[string]Value{}
	pairs, _ := Pairs(entry)
	for _, p := range pairs {
		got[p.Key] = Resolve(p.Value)
	}
	if c := got["command"]; c.Str != "/opt/h/guard.sh --user ann x" || c.Node.Line != 3 {
		t.Errorf("command = %q at line %d", c.Str, c.Node.Line)
	}
	// The agent expands after parsing: "30" stays a string.
	if v := got["timeout"]; v.Kind != KindString || v.Str != "30" {
		t.Errorf("timeout = %+v, want the string \"30\"", v)
	}
	if v := got["literal"]; v.Str != "$DIR {DIR} ${1BAD}" {
		t.Errorf("literal = %q, want it untouched", v.Str)
	}
	if k := f.Hooks.Content[2].Value; k != "${DIR}" {
		t.Errorf("key = %q, want keys untouched", k)
	}
}

// TestLoadExpandsWrittenAsEscapes: a reference the file spells only
// through escapes ("\x24{", "\u0024{", a "$" and "{" joined across an
// escaped line break) is a reference once read, and is expanded; a file
// with neither "${" nor a backslash is read unexpanded, its tree shared
// with the decoding offered to an edit.
func TestLoadExpandsWrittenAsEscapes(t *testing.T) {
	env := MapEnv(map[string]string{"DIR": "/opt/h"})
	for _, src := range []string{
		"hooks:\n  pre_tool_call:\n    - command: \"\\x24{DIR}/a.sh\"\n",
		"hooks:\n  pre_tool_call:\n    - command: \"\\u0024{DIR}/a.sh\"\n",
		"hooks:\n  pre_tool_call:\n    - command: \"$\\\n      {DIR}/a.sh\"\n",
	} {
		f, err := Load(writeConfig(t, src), env)
		if err != nil {
			t.Fatal(err)
		}
		cmd := f.Hooks.Content[1].Content[0].Content[1]
		if cmd.Value != "/opt/h/a.sh" || len(f.Expansions) != 1 {
			t.Errorf("%q: command %q, %d expansions; want /opt/h/a.sh, 1", src, cmd.Value, len(f.Expansions))
		}
	}
	src := "hooks:\n  pre_tool_call:\n    - command: /opt/$DIR/{DIR}/a.sh\n"
	f, err := Load(writeConfig(t, src), env)
	if err != nil {
		t.Fatal(err)
	}
	p := TakeDecoding([]byte(src))
	if p == nil || Deref(&p.Doc).Content[1] != f.Hooks || len(f.Expansions) != 0 {
		t.Errorf("a file with nothing to expand: decoding %v, tree shared %v, %d expansions", p != nil, p != nil && Deref(&p.Doc).Content[1] == f.Hooks, len(f.Expansions))
	}
}

func TestLoadSettings(t *testing.T) {
	def := DefaultSettings()
	tests := []struct {
		yaml  string
		want  Settings
		diags []string // "path@line: substring"
	}{
		{yaml: "", want: def},
		{yaml: "hooks_auto_accept: true", want: Settings{AutoAccept: true, PinScripts: true, AuditLog: true, StrictModes: true}},
		{yaml: "hooks_auto_accept: yes", want: Settings{AutoAccept: true, PinScripts: true, AuditLog: true, StrictModes: true}},
		{yaml: "hooks_auto_accept: ' ON '", want: Settings{AutoAccept: true, PinScripts: true, AuditLog: true, StrictModes: true}},
		{yaml: "hooks_auto_accept: \"1\"", want: Settings{AutoAccept: true, PinScripts: true, AuditLog: true, StrictModes: true}},
		{yaml: "hooks_auto_accept: 1", want: def}, // an int is not boolean true nor a string
		{yaml: "hooks_auto_accept: 'y'", want: def},
		{yaml: "hooks_auto_accept: false", want: def},
		{yaml: "hooks_auto_accept: [true]", want: def},
		{yaml: "hooks_auto_accept: ${AUTO}", want: Settings{AutoAccept: true, PinScripts: true, AuditLog: true, StrictModes: true}},
		{yaml: "hooks_pin_scripts: false\nhooks_audit_log: off", want: Settings{StrictModes: true}},
		{yaml: "hooks_strict_modes: false", want: Settings{PinScripts: true, AuditLog: true}},
		{yaml: "hooks_pin_scripts:", want: def},
		{yaml: "x: 1\nhooks_pin_scripts: 'false'", want: def, diags: []string{`hooks_pin_scripts@2: must be true or false, got "false"; using the default true`}},
		{yaml: "hooks_audit_log: 0", want: def, diags: []string{"hooks_audit_log@1: got 0"}},
		{yaml: "hooks_extra_events: [my_event, ' other ']", want: Settings{PinScripts: true, AuditLog: true, StrictModes: true, ExtraEvents: []string{"my_event", "other"}}},
		{yaml: "hooks_extra_events: my_event", want: def, diags: []string{"hooks_extra_events@1: must be a list"}},
		{yaml: "hooks_extra_events:\n  - 3\n  - ''\n  - agent:start\n  - ok_one",
			want: Settings{PinScripts: true, AuditLog: true, StrictModes: true, ExtraEvents: []string{"ok_one"}},
			diags: []string{"hooks_extra_events[0]@2: must be a string, got 3",
				"hooks_extra_events[1]@3: blank event name",
				`hooks_extra_events[2]@4: "agent:start" is a gateway event name`}},
		{yaml: "hooks_extra_events:\n  - bad name!\n  - outbound\n  - output_spill\n  - 9lives\n  - _ok9",
			want: Settings{PinScripts: true, AuditLog: true, StrictModes: true, ExtraEvents: []string{"_ok9"}},
			diags: []string{`hooks_extra_events[0]@2: "bad name!" is not an event name`,
				`hooks_extra_events[1]@3: "outbound" is a reserved key of the hooks: block, not an event`,
				`hooks_extra_events[2]@4: "output_spill" is a reserved key of the hooks: block, not an event`,
				`hooks_extra_events[3]@5: "9lives" is not an event name`}},
	}
	for _, tt := range tests {
		f, err := Load(writeConfig(t, tt.yaml), MapEnv(map[string]string{"AUTO": "true"}))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(f.Settings, tt.want) {
			t.Errorf("%q: settings = %+v, want %+v", tt.yaml, f.Settings, tt.want)
		}
		if len(f.Diagnostics) != len(tt.diags) {
			t.Errorf("%q: diagnostics = %v, want %v", tt.yaml, f.Diagnostics, tt.diags)
			continue
		}
		for i, want := range tt.diags {
			d := f.Diagnostics[i]
			where, msg, _ := strings.Cut(want, ": ")
			if got := d.Path + "@" + strconv.Itoa(d.Line); got != where || !strings.Contains(d.Message, msg) || d.Level != "warning" {
				t.Errorf("%q: diagnostic %d = %v, want %s: %s", tt.yaml, i, d, where, msg)
			}
		}
	}
}

func TestTruthy(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "true": true, "TRUE": true, " yes ": true, "On": true, "\ttrue\n": true,
		"": false, "0": false, "false": false, "no": false, "off": false, "y": false, "2": false, "truthy": false,
	} {
		if got := Truthy(s); got != want {
			t.Errorf("Truthy(%q) = %t, want %t", s, got, want)
		}
	}
}
