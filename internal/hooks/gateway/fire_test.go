package gateway

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

const hookYAML = "events: [agent:start]\n"

func mustObject(t *testing.T, text string) *pyjson.Object {
	t.Helper()
	obj, err := pyjson.DecodeObject([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func newRunner(t *testing.T) *Runner {
	return &Runner{Python: python(t), Home: t.TempDir(), Exec: shell.Exec{}}
}

func byName(t *testing.T, results []Result) map[string]Result {
	t.Helper()
	m := map[string]Result{}
	for _, r := range results {
		m[r.Name] = r
	}
	return m
}

// One Fire covers the behaviours that share a runner process: results come
// back in the order of hooks, each handler's outcome is its own.
func TestFireHandlers(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	folders := []struct {
		name string
		f    folder
	}{
		{"1-sync", folder{py: `
def handle(event_type, context):
    return {"event": event_type, "user": context["user_id"], "é": [1, 2.5, None, True]}
`}},
		{"2-async", folder{py: `
import asyncio
async def handle(event_type, context):
    await asyncio.sleep(0)
    return "async " + context["platform"]
`}},
		{"3-raises", folder{py: `
def helper():
    raise ValueError("boom")
def handle(event_type, context):
    context["poisoned"] = True
    helper()
`}},
		{"4-after-raise", folder{py: `
def handle(event_type, context):
    return "poisoned" in context
`}},
		{"5-prints", folder{py: `
import os, sys
def handle(event_type, context):
    print("hello from print")
    print('{"index": 99, "phase": "done"}')
    sys.stdout.write("raw stdout\n")
    os.write(1, b"fd 1 write\n")
    os.system("echo from a child process")
    print("to stderr", file=sys.stderr)
    os.write(2, b"fd 2 write\n")
    return 42
`}},
		{"6-repr", folder{py: `
class Thing:
    def __repr__(self):
        return "<Thing 7>"
def handle(event_type, context):
    return {"thing": Thing()}
`}},
		{"7-nan", folder{py: `
def handle(event_type, context):
    return float("nan")
`}},
		{"8-modules", folder{py: `
import sys
assert __name__ in sys.modules, __name__
assert __name__ == "hermes_hook_8_modules", __name__
def handle(event_type, context):
    return sys.modules[__name__].__name__
`}},
		{"9-exec", folder{exe: "#!/bin/sh\ncat\n"}},
		{"10-import-error", folder{py: "import no_such_module_hermes\n"}},
		{"11-no-handle", folder{py: "x = 1\n"}},
		{"12-none", folder{py: okPy}},
		{"13-exit", folder{py: "import sys\ndef handle(e, c):\n    sys.exit(3)\n"}},
	}
	for _, f := range folders {
		f.f.yaml = hookYAML
		writeFolder(t, root, f.name, f.f)
	}
	hooks := Match(Discover(root, known), "agent:start")
	if len(hooks) != len(folders) {
		t.Fatalf("matched %q, want all %d folders", names(hooks), len(folders))
	}
	payload := mustObject(t, `{"platform": "telegram", "user_id": "u1"}`)
	results, err := r.Fire(context.Background(), "agent:start", payload, hooks)
	if err != nil {
		t.Fatalf("Fire: %v", err)
	}
	if got := names2(results); strings.Join(got, ",") != strings.Join(names(hooks), ",") {
		t.Fatalf("results in order %q, want %q", got, names(hooks))
	}
	res := byName(t, results)

	expect := func(name, status, result string, repr bool) Result {
		t.Helper()
		got := res[name]
		if got.Status != status || string(got.Result) != result || got.Repr != repr {
			t.Errorf("%s: status %q result %s repr %v (error %q); want %q %s %v",
				name, got.Status, got.Result, got.Repr, got.Error, status, result, repr)
		}
		if status == StatusOK && got.Error != "" {
			t.Errorf("%s: ok with error %q", name, got.Error)
		}
		if got.ElapsedSeconds < 0 {
			t.Errorf("%s: elapsed %v", name, got.ElapsedSeconds)
		}
		return got
	}
	expect("1-sync", StatusOK, `{"event":"agent:start","user":"u1","é":[1,2.5,null,true]}`, false)
	expect("2-async", StatusOK, `"async telegram"`, false)
	raised := expect("3-raises", StatusError, "null", false)
	for _, want := range []string{"Traceback", "in helper", `raise ValueError("boom")`, "ValueError: boom"} {
		if !strings.Contains(raised.Error, want) {
			t.Errorf("3-raises error %q lacks %q", raised.Error, want)
		}
	}
	if raised.ErrorLine() != "ValueError: boom" {
		t.Errorf("ErrorLine = %q", raised.ErrorLine())
	}
	// Each handler gets its own copy of the context.
	expect("4-after-raise", StatusOK, "false", false)
	printed := expect("5-prints", StatusOK, "42", false)
	wantOut := "hello from print\n{\"index\": 99, \"phase\": \"done\"}\nraw stdout\nfd 1 write\nfrom a child process\n"
	if printed.Stdout != wantOut || printed.Stderr != "to stderr\nfd 2 write\n" {
		t.Errorf("5-prints captured stdout %q stderr %q", printed.Stdout, printed.Stderr)
	}
	expect("6-repr", StatusOK, `"{'thing': <Thing 7>}"`, true)
	expect("7-nan", StatusOK, `"nan"`, true)
	expect("8-modules", StatusOK, `"hermes_hook_8_modules"`, false)
	var echoed map[string]any
	ex := expect("9-exec", StatusOK, string(res["9-exec"].Result), false)
	if err := json.Unmarshal(ex.Result, &echoed); err != nil || echoed["event_type"] != "agent:start" ||
		echoed["context"].(map[string]any)["user_id"] != "u1" {
		t.Errorf("exec handler echoed %s (%v), want event_type and context", ex.Result, err)
	}
	if !strings.HasPrefix(ex.Stdout, `{"event_type": "agent:start", "context": {"platform"`) {
		t.Errorf("exec handler stdin = %q, want the Python-style event document", ex.Stdout)
	}
	imp := expect("10-import-error", StatusError, "null", false)
	if !strings.Contains(imp.Error, "importing") || !strings.Contains(imp.Error, "ModuleNotFoundError") {
		t.Errorf("import error = %q", imp.Error)
	}
	noHandle := expect("11-no-handle", StatusError, "null", false)
	if !strings.Contains(noHandle.Error, "defines no handle(event_type, context)") {
		t.Errorf("no handle error = %q", noHandle.Error)
	}
	expect("12-none", StatusOK, "null", false)
	exit := expect("13-exit", StatusError, "null", false)
	if exit.ErrorLine() != "SystemExit: 3" {
		t.Errorf("sys.exit error = %q", exit.Error)
	}
	// The runner writes no bytecode into the user's folders.
	if _, err := os.Stat(filepath.Join(root, "1-sync", "__pycache__")); err == nil {
		t.Errorf("__pycache__ written into a hook folder")
	}
}

func names2(results []Result) []string {
	var out []string
	for _, r := range results {
		out = append(out, r.Name)
	}
	return out
}

// Two folders declaring the same name still load as two modules, and a
// name that is not an identifier is made one.
func TestFireModuleNames(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	src := "def handle(e, c):\n    return __name__\n"
	writeFolder(t, root, "a", folder{yaml: "name: twin\n" + hookYAML, py: src})
	writeFolder(t, root, "b", folder{yaml: "name: twin\n" + hookYAML, py: src})
	writeFolder(t, root, "c", folder{yaml: "name: my-hook.v2 é\n" + hookYAML, py: src})
	results, err := r.Fire(context.Background(), "agent:start", nil, Discover(root, known))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`"hermes_hook_twin"`, `"hermes_hook_twin_2"`, `"hermes_hook_my_hook_v2__"`}
	for i, res := range results {
		if string(res.Result) != want[i] {
			t.Errorf("%s: module %s (%s), want %s", res.Name, res.Result, res.Error, want[i])
		}
	}
}
