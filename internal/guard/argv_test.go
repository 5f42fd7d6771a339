package guard

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		argv    []string
		want    Invocation
		wantErr bool
	}{
		{[]string{"/g", "--event", "pre_tool_call", "--", "/x.sh", "a"},
			Invocation{Guard: "/g", Event: "pre_tool_call", Inner: []string{"/x.sh", "a"}}, false},
		{[]string{"/g", "--event=pre_tool_call", "--fail-closed", "--", "python3", "/x.py", "--", "y"},
			Invocation{Guard: "/g", Event: "pre_tool_call", FailClosed: true, Inner: []string{"python3", "/x.py", "--", "y"}}, false},
		{[]string{"/g", "--dialect", "claude", "--project-dir", "/p", "--event", "e", "--", "x"},
			Invocation{Guard: "/g", Event: "e", Extra: map[string]string{"--dialect": "claude", "--project-dir": "/p"}, Inner: []string{"x"}}, false},
		{[]string{"/g", "--fail-closed", "--event", "e", "--"}, Invocation{Guard: "/g", Event: "e", FailClosed: true, Inner: []string{}}, true},
		{[]string{"/g", "--event", "e", "x"}, Invocation{}, true},
		{[]string{"/g", "--fail-closed", "--", "x"}, Invocation{}, true},
		{[]string{"/g", "--bogus", "--event", "e", "--", "x"}, Invocation{}, true},
		{[]string{"/g", "--fail-closed=yes", "--event", "e", "--", "x"}, Invocation{}, true},
		{[]string{"/g", "--event", "--", "x"}, Invocation{}, true},
	}
	for _, tt := range tests {
		got, err := Parse(tt.argv)
		if (err != nil) != tt.wantErr {
			t.Errorf("Parse(%q) error = %v, want error %v", tt.argv, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", tt.argv, got, tt.want)
		}
	}
	// A refusal still honours --fail-closed read before the error.
	if inv, err := Parse([]string{"/g", "--event", "pre_tool_call", "--fail-closed", "--bogus"}); err == nil || !inv.FailClosed || inv.Event != "pre_tool_call" {
		t.Errorf("partial Parse = %+v, %v", inv, err)
	}
}

func TestWrapUnwrap(t *testing.T) {
	tests := []struct {
		guard, event string
		failClosed   bool
		written      string
		wrapped      string
		inner        string
	}{
		{"/usr/local/bin/hermes-guard", "pre_tool_call", true, "~/.hermes/g.sh --x",
			"/usr/local/bin/hermes-guard --event pre_tool_call --fail-closed -- ${HOME}/.hermes/g.sh --x", "${HOME}/.hermes/g.sh --x"},
		{"/opt/my tools/hermes-guard", "post_tool_call", false, "python3 '/a -- b/x.py'",
			"'/opt/my tools/hermes-guard' --event post_tool_call -- python3 '/a -- b/x.py'", "python3 '/a -- b/x.py'"},
		{"/g/hermes-guard", "e", false, "~bob/x.sh", "/g/hermes-guard --event e -- ~bob/x.sh", "~bob/x.sh"},
	}
	for _, tt := range tests {
		w := Wrap(tt.guard, tt.event, tt.failClosed, tt.written)
		if w != tt.wrapped {
			t.Errorf("Wrap = %q, want %q", w, tt.wrapped)
		}
		inner, inv, ok := Unwrap(w)
		if !ok || inner != tt.inner || inv.Event != tt.event || inv.FailClosed != tt.failClosed || inv.Guard != tt.guard {
			t.Errorf("Unwrap(%q) = %q, %+v, %v", w, inner, inv, ok)
		}
		if _, ok := ParseCommand(w, "/home/u"); !ok {
			t.Errorf("ParseCommand(%q) did not read a guard", w)
		}
	}
	for _, c := range []string{"/x.sh -- y", "/bin/hermes --event e -- x", "hermes-guard --event e"} {
		if _, _, ok := Unwrap(c); ok {
			t.Errorf("Unwrap(%q) read a guard", c)
		}
	}
}

func TestTakeRefusal(t *testing.T) {
	rest, reason := TakeRefusal("hermes-guard: refused hook x: modified\n" + refusalMarker + "modified since approval\n")
	if rest != "hermes-guard: refused hook x: modified\n" || reason != "modified since approval" {
		t.Errorf("TakeRefusal = %q, %q", rest, reason)
	}
	if rest, reason := TakeRefusal("x " + refusalMarker + "y\n"); reason != "" || rest == "" {
		t.Errorf("a marker inside a line was taken: %q %q", rest, reason)
	}
}

// TestParseCommandQuotedName: the guard's name split by quotes or escapes
// is still read as the guard (ParseCommand's shortcut skips only commands
// that cannot name it); a command without the name is not.
func TestParseCommandQuotedName(t *testing.T) {
	for _, c := range []string{
		"/g/hermes-guard --event e -- x.sh",
		"/g/'hermes-gu'ard --event e -- x.sh",
		`/g/"hermes"-guard --event e -- x.sh`,
		`/g/hermes-\guard --event e -- x.sh`,
	} {
		if _, ok := ParseCommand(c, "/home/u"); !ok {
			t.Errorf("ParseCommand(%q) did not read a guard", c)
		}
	}
	for _, c := range []string{"/g/hermes-guar --event e -- x.sh", "/x.sh 0000123"} {
		if _, ok := ParseCommand(c, "/home/u"); ok {
			t.Errorf("ParseCommand(%q) read a guard", c)
		}
	}
}
