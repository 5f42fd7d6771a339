package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// tree creates files (content "") and folders (trailing /) under dir.
func tree(t *testing.T, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		full := filepath.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		content := ""
		if name, value, ok := strings.Cut(p, "="); ok {
			full, content = filepath.Join(dir, name), value
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLocate(t *testing.T) {
	// Paths in the table use U for the user's home and E for another
	// folder; both are replaced by temporary directories.
	tests := []struct {
		name    string
		files   []string // under the temporary root, paths starting with U/ or E/
		req     Request  // strings may use U and E prefixes
		env     map[string]string
		want    Location // with U/E prefixes; Root defaults to U/.hermes
		wantErr string
		errType any
	}{
		{name: "default root, no config",
			files: []string{"U/.hermes/"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default",
				Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		{name: "config.yaml preferred over cli-config.yaml",
			files: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", ConfigPath: "U/.hermes/config.yaml",
				Searched: []string{"U/.hermes/config.yaml"}}},
		{name: "cli-config.yaml fallback",
			files: []string{"U/.hermes/cli-config.yaml"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", ConfigPath: "U/.hermes/cli-config.yaml",
				Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		// SPEC §13 rule 13: an error, not a silent fall-through to the
		// next candidate (or to "none found").
		{name: "a folder named config.yaml is an error",
			files:   []string{"U/.hermes/config.yaml/", "U/.hermes/cli-config.yaml"},
			wantErr: "config file U/.hermes/config.yaml cannot be used: it is a directory, not a regular file",
			errType: &FileError{}},
		{name: "--home wins over HERMES_HOME",
			files: []string{"E/h/config.yaml"},
			req:   Request{HomeFlag: "E/h"}, env: map[string]string{"HERMES_HOME": "U/other"},
			want: Location{Root: "E/h", Home: "E/h", Profile: "default", ConfigPath: "E/h/config.yaml",
				Searched: []string{"E/h/config.yaml"}}},
		{name: "--home with ~",
			files: []string{"U/h/config.yaml"},
			req:   Request{HomeFlag: "~/h"},
			want: Location{Root: "U/h", Home: "U/h", Profile: "default", ConfigPath: "U/h/config.yaml",
				Searched: []string{"U/h/config.yaml"}}},
		{name: "HERMES_HOME",
			files: []string{"E/h/"},
			env:   map[string]string{"HERMES_HOME": "E/h"},
			want:  Location{Root: "E/h", Home: "E/h", Profile: "default", Searched: []string{"E/h/config.yaml", "E/h/cli-config.yaml"}}},
		{name: "a missing HERMES_HOME is an error (SPEC §20)",
			env:     map[string]string{"HERMES_HOME": "E/nope"},
			wantErr: "HERMES_HOME E/nope does not exist (named by HERMES_HOME)", errType: &HomeMissingError{}},
		{name: "blank HERMES_HOME is ignored",
			env:  map[string]string{"HERMES_HOME": "  "},
			want: Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		{name: "-p selects a profile",
			files: []string{"U/.hermes/profiles/work/config.yaml", "U/.hermes/config.yaml"},
			req:   Request{ProfileFlag: "work"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes/profiles/work", Profile: "work",
				ConfigPath: "U/.hermes/profiles/work/config.yaml", Searched: []string{"U/.hermes/profiles/work/config.yaml"}}},
		{name: "-p default is the root",
			files: []string{"U/.hermes/config.yaml", "U/.hermes/active_profile=work", "U/.hermes/profiles/work/"},
			req:   Request{ProfileFlag: "default"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default",
				ConfigPath: "U/.hermes/config.yaml", Searched: []string{"U/.hermes/config.yaml"}}},
		{name: "-p under --home",
			files: []string{"E/h/profiles/ci/"},
			req:   Request{HomeFlag: "E/h", ProfileFlag: "ci"},
			want: Location{Root: "E/h", Home: "E/h/profiles/ci", Profile: "ci",
				Searched: []string{"E/h/profiles/ci/config.yaml", "E/h/profiles/ci/cli-config.yaml"}}},
		{name: "missing profile",
			files: []string{"U/.hermes/"}, req: Request{ProfileFlag: "nope"},
			wantErr: `profile "nope" does not exist (looked in U/.hermes/profiles/nope)`, errType: &ProfileError{}},
		{name: "profile name that climbs out",
			files: []string{"U/.hermes/profiles/"}, req: Request{ProfileFlag: "../.."},
			wantErr: `invalid profile name "../.."`, errType: &ProfileError{}},
		{name: "active_profile selects a profile (trimmed)",
			files: []string{"U/.hermes/active_profile= work\n", "U/.hermes/profiles/work/cli-config.yaml"},
			want: Location{Root: "U/.hermes", Home: "U/.hermes/profiles/work", Profile: "work",
				ConfigPath: "U/.hermes/profiles/work/cli-config.yaml",
				Searched:   []string{"U/.hermes/profiles/work/config.yaml", "U/.hermes/profiles/work/cli-config.yaml"}}},
		{name: "active_profile empty is the root",
			files: []string{"U/.hermes/active_profile=\n"},
			want:  Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		{name: "active_profile default is the root",
			files: []string{"U/.hermes/active_profile=default"},
			want:  Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		{name: "active_profile naming a missing profile",
			files:   []string{"U/.hermes/active_profile=gone"},
			wantErr: `profile "gone" does not exist (looked in U/.hermes/profiles/gone); it is named by U/.hermes/active_profile`, errType: &ProfileError{}},
		{name: "active_profile ignored with --home",
			files: []string{"U/.hermes/active_profile=work", "U/.hermes/profiles/work/", "E/h/"},
			req:   Request{HomeFlag: "E/h"},
			want:  Location{Root: "E/h", Home: "E/h", Profile: "default", Searched: []string{"E/h/config.yaml", "E/h/cli-config.yaml"}}},
		{name: "active_profile ignored with HERMES_HOME, even HERMES_HOME=~/.hermes",
			files: []string{"U/.hermes/active_profile=work", "U/.hermes/profiles/work/"},
			env:   map[string]string{"HERMES_HOME": "U/.hermes"},
			want:  Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", Searched: []string{"U/.hermes/config.yaml", "U/.hermes/cli-config.yaml"}}},
		{name: "--config wins",
			files: []string{"U/.hermes/config.yaml", "E/my.yaml"},
			req:   Request{ConfigFlag: "E/my.yaml"},
			want:  Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", ConfigPath: "E/my.yaml", Searched: []string{"E/my.yaml"}}},
		{name: "--config with ~",
			files: []string{"U/my.yaml"},
			req:   Request{ConfigFlag: "~/my.yaml"},
			want:  Location{Root: "U/.hermes", Home: "U/.hermes", Profile: "default", ConfigPath: "U/my.yaml", Searched: []string{"U/my.yaml"}}},
		{name: "--config missing",
			files: []string{"U/.hermes/config.yaml"}, req: Request{ConfigFlag: "E/nope.yaml"},
			wantErr: "config file E/nope.yaml given with --config cannot be used", errType: &ConfigNotFoundError{}},
		{name: "--config a folder",
			files: []string{"E/dir/"}, req: Request{ConfigFlag: "E/dir"},
			wantErr: "E/dir given with --config cannot be used: it is a directory", errType: &ConfigNotFoundError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			u, e := filepath.Join(tmp, "U"), filepath.Join(tmp, "E")
			sub := func(s string) string {
				switch {
				case s == "U" || strings.HasPrefix(s, "U/"):
					return u + s[1:]
				case s == "E" || strings.HasPrefix(s, "E/"):
					return e + s[1:]
				}
				return s
			}
			subAll := func(s string) string {
				return strings.NewReplacer("U/", u+"/", "E/", e+"/").Replace(s)
			}
			tree(t, tmp, tt.files...)
			// The current directory holds configs that must never be used.
			tree(t, tmp, "cwd/config.yaml", "cwd/cli-config.yaml", "cwd/.hermes/config.yaml")
			t.Chdir(filepath.Join(tmp, "cwd"))

			req := tt.req
			req.HomeFlag, req.ConfigFlag = sub(req.HomeFlag), sub(req.ConfigFlag)
			req.UserHome = u
			env := map[string]string{}
			for k, v := range tt.env {
				env[k] = sub(v)
			}
			req.Env = MapEnv(env)

			got, err := Locate(req)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), subAll(tt.wantErr)) {
					t.Fatalf("error = %v, want it to contain %q", err, subAll(tt.wantErr))
				}
				target := reflect.New(reflect.TypeOf(tt.errType)).Interface()
				if !errors.As(err, target) {
					t.Fatalf("error %T is not a %T", err, tt.errType)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.Root, want.Home, want.ConfigPath = sub(want.Root), sub(want.Home), sub(want.ConfigPath)
			for i := range want.Searched {
				want.Searched[i] = sub(want.Searched[i])
			}
			got.HomeSource = "" // TestHomeSource
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("Locate =\n%+v\nwant\n%+v", *got, want)
			}
		})
	}
}

func TestLocateNeedsAHome(t *testing.T) {
	if _, err := Locate(Request{}); err == nil || !strings.Contains(err.Error(), "HERMES_HOME") {
		t.Fatalf("error = %v, want advice to set HERMES_HOME", err)
	}
}

// SPEC §13 rule 16: a home named explicitly must exist before anything is
// written there; ~/.hermes is created on demand.
func TestHomeSourceAndCheckWritable(t *testing.T) {
	u := t.TempDir()
	if err := os.MkdirAll(filepath.Join(u, "real", "profiles", "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		req     Request
		env     map[string]string
		source  string
		missing bool
	}{
		{name: "~/.hermes, missing", source: ""},
		{name: "--home typo", req: Request{HomeFlag: filepath.Join(u, "raal")}, source: "--home", missing: true},
		{name: "HERMES_HOME typo", env: map[string]string{"HERMES_HOME": filepath.Join(u, "raal")}, source: "HERMES_HOME", missing: true},
		{name: "--home exists", req: Request{HomeFlag: filepath.Join(u, "real")}, source: "--home"},
		{name: "-p under --home", req: Request{HomeFlag: filepath.Join(u, "real"), ProfileFlag: "ci"}, source: "--profile"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.req.UserHome, c.req.Env = u, MapEnv(c.env)
			loc, err := Locate(c.req)
			// §20: a missing explicit home is refused for reading too,
			// by Locate itself.
			if c.missing {
				loc = &Location{Home: filepath.Join(u, "raal"), HomeSource: c.source}
				var hm *HomeMissingError
				if !errors.As(err, &hm) {
					t.Fatalf("Locate = %v, want a HomeMissingError", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if loc.HomeSource != c.source {
				t.Errorf("HomeSource = %q, want %q", loc.HomeSource, c.source)
			}
			err = loc.CheckWritable()
			var hm *HomeMissingError
			if c.missing != errors.As(err, &hm) {
				t.Fatalf("CheckWritable = %v, want missing %v", err, c.missing)
			}
			if c.missing && (!strings.Contains(err.Error(), loc.Home) || !strings.Contains(err.Error(), c.source)) {
				t.Errorf("error %q does not name the path and where it came from", err)
			}
		})
	}
}

func TestEnvWith(t *testing.T) {
	base := MapEnv(map[string]string{"HERMES_HOME": "/caller", "A": "a"})
	env := base.With("HERMES_HOME", "/in/use")
	if v, ok := env("HERMES_HOME"); v != "/in/use" || !ok {
		t.Errorf("HERMES_HOME = %q, %t", v, ok)
	}
	if v, ok := env("A"); v != "a" || !ok {
		t.Errorf("A = %q, %t", v, ok)
	}
	if _, ok := env("B"); ok {
		t.Error("B is set")
	}
	if v, _ := base("HERMES_HOME"); v != "/caller" {
		t.Errorf("With changed the base: %q", v)
	}
	if v, ok := Env(nil).With("X", "1")("X"); v != "1" || !ok {
		t.Errorf("nil Env: %q, %t", v, ok)
	}
	if _, ok := Env(nil).With("X", "1")("Y"); ok {
		t.Error("nil Env: Y is set")
	}
}
