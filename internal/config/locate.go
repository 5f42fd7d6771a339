package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// Env looks up an environment variable: os.LookupEnv in production, a map
// in tests (see MapEnv).
type Env func(key string) (string, bool)

// With returns an Env where key reads as value and every other name as in
// e (a nil e has no other variables).
func (e Env) With(key, value string) Env {
	return func(k string) (string, bool) {
		if k == key {
			return value, true
		}
		if e == nil {
			return "", false
		}
		return e(k)
	}
}

// MapEnv returns an Env reading m.
func MapEnv(m map[string]string) Env {
	return func(key string) (string, bool) {
		v, ok := m[key]
		return v, ok
	}
}

// DefaultProfile is the profile name outside profiles; it is also what
// `-p default` selects: the root itself.
const DefaultProfile = "default"

// Request is what the command line and the environment say about where
// hermes lives.
type Request struct {
	HomeFlag    string // --home
	ProfileFlag string // -p / --profile
	ConfigFlag  string // --config
	Env         Env    // nil: no variables
	UserHome    string // the user's home directory, for ~
}

// Location is where this invocation's files are.
type Location struct {
	Root       string   // --home, HERMES_HOME or ~/.hermes
	Home       string   // HERMES_HOME: Root or Root/profiles/<Profile>
	Profile    string   // "default" outside profiles
	ConfigPath string   // "" when no config file was found
	Searched   []string // config paths looked at, in order
	// HomeSource names what chose Home when it was named explicitly
	// ("--home", "HERMES_HOME", "--profile"); "" for ~/.hermes and the
	// active_profile file, which hermes may create on demand.
	HomeSource string
}

// HomeMissingError says a HERMES_HOME named explicitly does not exist: a
// typo must not create a new home (SPEC §13 rule 16). The CLI maps it to
// exit code 2.
type HomeMissingError struct {
	Path   string
	Source string
	NotDir bool // it exists but is not a folder
}

func (e *HomeMissingError) Error() string {
	if e.NotDir {
		return fmt.Sprintf("HERMES_HOME %s is not a folder (named by %s): check the path; nothing was read or written", e.Path, e.Source)
	}
	return fmt.Sprintf("HERMES_HOME %s does not exist (named by %s), and a home named explicitly is never created: check the path, or create it first (mkdir -p %s); nothing was read or written",
		e.Path, e.Source, e.Path)
}

// CheckWritable is called before anything is written into Home: a home
// named explicitly must exist (a folder); ~/.hermes is created on demand.
func (loc *Location) CheckWritable() error {
	if loc.HomeSource == "" {
		return nil
	}
	fi, err := os.Stat(loc.Home)
	if err != nil || !fi.IsDir() {
		return &HomeMissingError{Path: loc.Home, Source: loc.HomeSource, NotDir: err == nil}
	}
	return nil
}

// ProfileError says a selected profile cannot be used. The CLI maps it to
// exit code 2.
type ProfileError struct {
	Name   string
	Dir    string // where the profile was looked for
	Source string // "--profile" or the active_profile file that named it
	Reason string // set when the name itself is unusable
}

func (e *ProfileError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("invalid profile name %q (from %s): %s", e.Name, e.Source, e.Reason)
	}
	msg := fmt.Sprintf("profile %q does not exist (looked in %s)", e.Name, e.Dir)
	if e.Source != "--profile" {
		msg += fmt.Sprintf("; it is named by %s: fix or delete that file", e.Source)
	}
	return msg
}

// ConfigNotFoundError says the file given with --config cannot be used. The
// CLI maps it to exit code 2.
type ConfigNotFoundError struct {
	Path string
	Err  error
}

func (e *ConfigNotFoundError) Error() string {
	return fmt.Sprintf("config file %s given with --config cannot be used: %v", e.Path, e.Err)
}

func (e *ConfigNotFoundError) Unwrap() error { return e.Err }

// FileError says an input file exists but cannot be used: a config, a
// HOOK.yaml or a payload file that is a FIFO, a socket, a device or a
// directory (SPEC §13 rule 13). The CLI maps it to exit code 2.
type FileError struct {
	What string // "config file", "HOOK.yaml", "payload file"
	Path string
	Err  error
}

func (e *FileError) Error() string {
	return fmt.Sprintf("%s %s cannot be used: %v", e.What, e.Path, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// notRegular is a FileError when fi is not a regular file, else nil.
func notRegular(what, path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &FileError{What: what, Path: path, Err: errors.New("it is " + regfile.Kind(fi.Mode()) + ", not a regular file")}
}

// Locate resolves the root, the profile, HERMES_HOME and the config file
// (SPEC §1). It only reads the file system.
func Locate(r Request) (*Location, error) {
	env := r.Env
	if env == nil {
		env = MapEnv(nil)
	}
	loc := &Location{Profile: DefaultProfile}

	explicitRoot := true
	switch envHome, _ := env("HERMES_HOME"); {
	case r.HomeFlag != "":
		// Made absolute like HERMES_HOME (SPEC §13.2 rule 8), so reports and
		// the hooks' HERMES_HOME name one place. "--home ." stays allowed:
		// typed on the command line it is a choice made for this one run,
		// not a variable that follows every cd.
		loc.Root = expandTilde(r.HomeFlag, r.UserHome)
		if abs, err := filepath.Abs(loc.Root); err == nil {
			loc.Root = abs
		}
		loc.HomeSource = "--home"
	case strings.TrimSpace(envHome) != "":
		root, err := absoluteHome(envHome)
		if err != nil {
			return nil, err
		}
		loc.Root = root
		loc.HomeSource = "HERMES_HOME"
	default:
		explicitRoot = false
		if r.UserHome == "" {
			return nil, errors.New("cannot find the home directory for ~/.hermes: set HERMES_HOME or pass --home")
		}
		loc.Root = filepath.Join(r.UserHome, ".hermes")
	}
	loc.Home = loc.Root

	name, source := r.ProfileFlag, "--profile"
	if name == "" && !explicitRoot {
		// The active_profile file only applies to the default root: someone
		// who points hermes somewhere explicitly means that place.
		var err error
		if name, source, err = activeProfile(loc.Root); err != nil {
			return nil, err
		}
	}
	if name != "" && name != DefaultProfile {
		home, err := profileDir(loc.Root, name, source)
		if err != nil {
			return nil, err
		}
		loc.Home, loc.Profile = home, name
		if source == "--profile" {
			loc.HomeSource = source
		}
	}

	// A home named explicitly that does not exist is a typo, for reading
	// as for writing (SPEC §13 rule 16, §20): a CI job pointed at the
	// wrong path must not pass on an empty home.
	if err := loc.CheckWritable(); err != nil {
		return nil, err
	}
	if err := loc.findConfig(r); err != nil {
		return nil, err
	}
	return loc, nil
}

// absoluteHome is HERMES_HOME made absolute (SPEC §13.2 rule 8), so every
// report and every hook's HERMES_HOME names one place whatever the working
// directory. A relative one naming the working directory itself is
// refused: any checkout one cds into would then bring the config that
// decides what runs.
func absoluteHome(envHome string) (string, error) {
	root := filepath.Clean(envHome)
	if filepath.IsAbs(root) {
		return root, nil
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &FileError{What: "HERMES_HOME", Path: envHome, Err: err}
	}
	if cwd, err := os.Getwd(); err != nil || abs == filepath.Clean(cwd) {
		return "", &FileError{What: "HERMES_HOME", Path: envHome,
			Err: errors.New("a relative HERMES_HOME naming the current directory would read whatever config.yaml is where you run hermes (any checkout you cd into); set it to an absolute path")}
	}
	return abs, nil
}

// activeProfile reads <root>/active_profile; "" means the root itself.
func activeProfile(root string) (name, source string, err error) {
	path := filepath.Join(root, "active_profile")
	data, err := regfile.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("reading the active profile file %s: %w (fix its permissions or delete it)", path, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff")), path, nil
}

func profileDir(root, name, source string) (string, error) {
	// A name is one folder under profiles/: anything that could climb out
	// of it is refused rather than followed.
	if strings.ContainsAny(name, `/\`) || name == "." || name == ".." || strings.TrimSpace(name) != name {
		return "", &ProfileError{Name: name, Source: source,
			Reason: "a profile name is a folder name under profiles/, without slashes or surrounding spaces"}
	}
	dir := filepath.Join(root, "profiles", name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", &ProfileError{Name: name, Dir: dir, Source: source}
	}
	return dir, nil
}

func (loc *Location) findConfig(r Request) error {
	if r.ConfigFlag != "" {
		path := expandTilde(r.ConfigFlag, r.UserHome)
		loc.Searched = []string{path}
		fi, err := os.Stat(path)
		if err == nil && !fi.Mode().IsRegular() {
			err = errors.New("it is " + regfile.Kind(fi.Mode()) + ", not a regular file")
		}
		if err != nil {
			return &ConfigNotFoundError{Path: path, Err: err}
		}
		loc.ConfigPath = path
		return nil
	}
	for _, name := range []string{"config.yaml", "cli-config.yaml"} {
		path := filepath.Join(loc.Home, name)
		loc.Searched = append(loc.Searched, path)
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Errorf("checking config file %s: %w", path, err)
		}
		// A directory or a FIFO where the config should be is a mistake to
		// report, not "no config": the agent would not read it either.
		if err := notRegular("config file", path, fi); err != nil {
			return err
		}
		loc.ConfigPath = path
		return nil
	}
	return nil
}

// expandTilde expands a leading ~ or ~/ to the user's home: shells do not
// expand it in --home=~/x.
func expandTilde(p, userHome string) string {
	if userHome != "" {
		if p == "~" {
			return userHome
		}
		if rest, ok := strings.CutPrefix(p, "~"+string(filepath.Separator)); ok {
			return filepath.Join(userHome, rest)
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			return filepath.Join(userHome, rest)
		}
	}
	// Absolute, so every report names the file unambiguously.
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}
