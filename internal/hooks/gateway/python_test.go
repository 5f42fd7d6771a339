package gateway

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindPython(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "mypython")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	onPath := filepath.Join(dir, "python3")
	if err := os.WriteFile(onPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope")
	env := func(vals map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vals[k]; return v, ok }
	}

	tests := []struct {
		name    string
		path    string // PATH for the test
		flag    string
		env     map[string]string
		want    string
		wantErr string
	}{
		{name: "flag wins", path: dir, flag: fake, env: map[string]string{"HERMES_PYTHON": missing}, want: fake},
		{name: "env", path: dir, env: map[string]string{"HERMES_PYTHON": fake}, want: fake},
		{name: "blank env ignored", path: dir, env: map[string]string{"HERMES_PYTHON": "  "}, want: onPath},
		{name: "PATH", path: dir, want: onPath},
		{name: "none on PATH", path: t.TempDir(),
			wantErr: "gateway hooks unavailable: python3 not found (set --python or HERMES_PYTHON)"},
		{name: "flag missing", path: dir, flag: missing,
			wantErr: `gateway hooks unavailable: python interpreter "` + missing + `" (from --python) not found or not executable`},
		{name: "env missing", path: dir, env: map[string]string{"HERMES_PYTHON": missing},
			wantErr: `(from HERMES_PYTHON) not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("PATH", tt.path)
			got, err := FindPython(tt.flag, env(tt.env))
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Errorf("FindPython = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var pe *PythonError
			if !errors.As(err, &pe) || !errors.Is(err, ErrPythonUnavailable) {
				t.Fatalf("FindPython error = %v, want a PythonError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.wantErr) {
				t.Errorf("error = %q, want it to contain %q", msg, tt.wantErr)
			}
		})
	}
}
