package gateway

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestCheckPython(t *testing.T) {
	r := newRunner(t)
	tests := []struct {
		name, src string
		want      string // "" = valid; else substring of the error
		line      int
	}{
		{"plain", "def handle(event_type, context):\n    pass\n", "", 0},
		{"async", "import asyncio\nasync def handle(event_type, context):\n    pass\n", "", 0},
		{"varargs", "def handle(*args):\n    pass\n", "", 0},
		{"one and varargs", "def handle(event, *rest, **kw):\n    pass\n", "", 0},
		{"extra with default", "def handle(e, c, verbose=False):\n    pass\n", "", 0},
		{"positional-only", "def handle(e, c, /):\n    pass\n", "", 0},
		{"redefined last wins", "def handle(e):\n    pass\ndef handle(e, c):\n    pass\n", "", 0},
		{"assigned", "def _h(e, c):\n    pass\nhandle = _h\n", "", 0},
		{"bom and coding", "\ufeff# -*- coding: utf-8 -*-\ndef handle(e, c):\n    return 'é'\n", "", 0},
		{"syntax error", "def handle(e, c):\n    return (\n\nx = 1 +\n", "syntax error", 2},
		{"bad indent", "def handle(e, c):\nreturn 1\n", "syntax error: expected an indented block", 2},
		{"no handle", "def handler(e, c):\n    pass\n", "no top-level handle function", 0},
		{"nested only", "class K:\n    def handle(self, e, c):\n        pass\n", "no top-level handle function", 0},
		{"empty", "", "no top-level handle function", 0},
		{"one param", "\n\ndef handle(event):\n    pass\n", "handle takes 1 positional parameter(s) (event); it is called as handle(event_type, context)", 3},
		{"no params", "def handle():\n    pass\n", "handle takes 0 positional parameter(s) (none)", 1},
		{"three params", "async def handle(a, b, c):\n    pass\n", "handle requires 3 positional parameters (a, b, c)", 1},
		{"keyword-only", "def handle(e, c, *, flag):\n    pass\n", "required keyword-only parameter(s) flag", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFolder(t, root, "h", folder{yaml: hookYAML, py: "#\n"})
			path := filepath.Join(root, "h", HandlerPy)
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			err := r.Check(context.Background(), Discover(root, known)[0])
			if tt.want == "" {
				if err != nil {
					t.Errorf("Check: %v, want valid", err)
				}
				return
			}
			var ce *CheckError
			if !errors.As(err, &ce) {
				t.Fatalf("Check = %v, want a CheckError containing %q", err, tt.want)
			}
			if !strings.Contains(ce.Msg, tt.want) || ce.Line != tt.line || ce.Path != path {
				t.Errorf("Check = %q (line %d, path %s); want %q at line %d of %s", ce.Msg, ce.Line, ce.Path, tt.want, tt.line, path)
			}
		})
	}
}

// Checking parses the handler; it never runs it, not even its top level.
func TestCheckDoesNotExecute(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	marker := filepath.Join(t.TempDir(), "executed")
	writeFolder(t, root, "h", folder{yaml: hookYAML,
		py: "open(" + strconv.Quote(marker) + ", 'w').write('x')\nprint('noise')\n" + okPy})
	if err := r.Check(context.Background(), Discover(root, known)[0]); err != nil {
		t.Fatalf("Check: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("Check executed handler.py")
	}
}

func TestCheckOther(t *testing.T) {
	root := t.TempDir()
	writeFolder(t, root, "exe", folder{yaml: hookYAML, exe: "#!/bin/sh\n"})
	writeFolder(t, root, "noexec", folder{yaml: hookYAML, exe: "#!/bin/sh\n"})
	writeFolder(t, root, "none", folder{yaml: hookYAML})
	writeFolder(t, root, "py", folder{yaml: hookYAML, py: okPy})
	hooks := Discover(root, known)
	// Made non-executable after discovery, as if it changed since.
	if err := os.Chmod(filepath.Join(root, "noexec", HandlerExec), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Runner{} // no Python
	tests := []struct {
		hook Hook
		want string
	}{
		{hooks[0], ""},
		{hooks[1], "is not executable (chmod +x it)"},
		{hooks[2], "no handler: add handler.py"},
		{hooks[3], "gateway hooks unavailable: python3 not found"},
	}
	for _, tt := range tests {
		err := r.Check(context.Background(), tt.hook)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: Check = %v, want nil", tt.hook.Name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: Check = %v, want %q", tt.hook.Name, err, tt.want)
		}
	}
}

// SPEC §28 item 5: the top-level imports the Python cannot find are named,
// without running the handler: not a stdlib module, not one imported under
// try or if (optional), not a relative one, and not a module that only
// sits beside the handler or in the working directory (the gateway puts
// neither on sys.path). A package is looked up by its first name only, so
// finding "email.mime" runs nothing of a package.
func TestCheckImports(t *testing.T) {
	r := newRunner(t)
	root := t.TempDir()
	marker := filepath.Join(t.TempDir(), "executed")
	writeFolder(t, root, "h", folder{yaml: hookYAML, py: "import os, json\n" +
		"import hermes_walk_missing_a\n" +
		"from hermes_walk_missing_b.sub import x\n" +
		"from email.mime import text\n" +
		"from . import sibling\n" +
		"import beside\n" +
		"try:\n    import hermes_walk_optional\nexcept ImportError:\n    pass\n" +
		"import hermes_walk_missing_a\n" +
		"open(" + strconv.Quote(marker) + ", 'w').write('x')\n" + okPy})
	if err := os.WriteFile(filepath.Join(root, "h", "beside.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing, err := r.CheckImports(context.Background(), Discover(root, known)[0])
	if err != nil {
		t.Fatalf("CheckImports: %v", err)
	}
	got := ""
	for _, m := range missing {
		got += m.Module + "@" + strconv.Itoa(m.Line) + " "
	}
	if want := "hermes_walk_missing_a@2 hermes_walk_missing_b@3 beside@6 "; got != want {
		t.Errorf("missing = %q, want %q", got, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the handler's top level ran during the check")
	}
}
