package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// EnvVar switches recording on (1) or off (0) whatever the config says,
// for the guard and run-event alike.
const EnvVar = "HERMES_HOOKS_RECORD"

// DefaultMax is the store's bound when hooks_record_max is not given.
const DefaultMax int64 = 64 << 20

// Settings say whether firings are recorded and how much the store keeps.
type Settings struct {
	On  bool
	Max int64 // bytes, > 0
	// MaxProblem is why hooks_record_max was not used ("" when it was, or
	// was absent): the default stands.
	MaxProblem string
}

// configNames are the files the config is read from, in order (as the
// agent and config.Locate look for them).
var configNames = []string{"config.yaml", "cli-config.yaml"}

// maxConfig bounds what the scan reads: far above any real config.
const maxConfig = 8 << 20

// Load decides the settings for the home: the config's top-level
// hooks_record and hooks_record_max keys found by ScanConfig, then
// HERMES_HOOKS_RECORD from getenv, which wins. A config that cannot be
// read counts as one without the keys.
func Load(home string, getenv func(string) string) Settings {
	paths := make([]string, len(configNames))
	for i, name := range configNames {
		paths[i] = filepath.Join(home, name)
	}
	return load(paths, getenv)
}

// LoadPath is Load for the config at path (run-event's, which --config may
// name): the same scan, so that run-event and the guard always agree.
func LoadPath(path string, getenv func(string) string) Settings {
	if path == "" {
		return load(nil, getenv)
	}
	return load([]string{path}, getenv)
}

// load scans the first config of paths that exists.
func load(paths []string, getenv func(string) string) Settings {
	env, envSet := envSwitch(getenv(EnvVar))
	if envSet && !env {
		return Settings{Max: DefaultMax} // the config need not be read at all
	}
	s := Settings{Max: DefaultMax}
	for _, p := range paths {
		if data, found := readConfig(p); found {
			s = ScanConfig(data)
			break
		}
	}
	if envSet {
		s.On = true
	}
	return s
}

// envSwitch reads HERMES_HOOKS_RECORD: 1/true/yes/on or 0/false/no/off
// (any case); anything else (unset included) leaves the config to decide.
func envSwitch(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, true
	case "0", "false", "no", "off":
		return false, true
	}
	return false, false
}

// readConfig reads a regular file (a FIFO is never opened for reading:
// it would hang the agent's tool call). found is false when there is no
// file there.
func readConfig(path string) (data []byte, found bool) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, !os.IsNotExist(err)
	}
	defer f.Close()
	data, _ = io.ReadAll(io.LimitReader(f, maxConfig))
	return data, true
}

// ScanConfig finds the top-level hooks_record and hooks_record_max keys of
// a YAML config by a line scan (SPEC §26): a key at column 0, its value the
// rest of the line without a comment. hooks_record is on only when its
// value is a YAML 1.1 boolean true, as the agent's reader resolves it
// (true, yes, on, y in their usual cases); anything else is off.
func ScanConfig(data []byte) Settings {
	s := Settings{Max: DefaultMax}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		key, value, ok := topLevel(line)
		if !ok {
			continue
		}
		switch key {
		case "hooks_record":
			s.On = yamlTrue(value)
		case "hooks_record_max":
			if value == "" || value == "~" || value == "null" {
				s.Max, s.MaxProblem = DefaultMax, ""
				continue
			}
			n, err := ParseSize(value)
			if err != nil {
				s.Max, s.MaxProblem = DefaultMax, err.Error()
			} else {
				s.Max, s.MaxProblem = n, ""
			}
		}
	}
	return s
}

// topLevel splits a line "key: value # comment" written at column 0.
func topLevel(line []byte) (key, value string, ok bool) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
		return "", "", false
	}
	k, v, ok := bytes.Cut(line, []byte{':'})
	if !ok || (len(v) > 0 && v[0] != ' ' && v[0] != '\t') {
		return "", "", false
	}
	k = bytes.TrimRight(k, " \t")
	if len(k) >= 2 && (k[0] == '"' || k[0] == '\'') && k[len(k)-1] == k[0] {
		k = k[1 : len(k)-1]
	}
	val := string(v)
	if i := strings.Index(val, " #"); i >= 0 {
		val = val[:i]
	}
	if i := strings.Index(val, "\t#"); i >= 0 {
		val = val[:i]
	}
	return string(k), strings.TrimSpace(val), true
}

// yamlTrue: the plain scalars PyYAML (YAML 1.1) resolves to true, the
// same set as config's reader.
func yamlTrue(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
		return true
	}
	return false
}

// ParseSize reads hooks_record_max: bytes as a whole number, or with a
// unit (KiB, MiB, GiB, TiB; KB, MB, GB, TB in powers of 1000; B), a space
// allowed before the unit, quotes around the whole allowed.
func ParseSize(s string) (int64, error) {
	in := s
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		s = s[1 : len(s)-1]
	}
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, unit := s[:i], strings.TrimSpace(s[i:])
	mult, known := units[strings.ToLower(unit)]
	n, err := strconv.ParseInt(num, 10, 64)
	if num == "" || err != nil || !known {
		return 0, fmt.Errorf("hooks_record_max: %q is not a size (bytes, as a number or with a unit: 64MiB, 1GiB)", in)
	}
	if n <= 0 {
		return 0, fmt.Errorf("hooks_record_max: %q must be more than 0", in)
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("hooks_record_max: %q is too large", in)
	}
	return n * mult, nil
}

var units = map[string]int64{
	"": 1, "b": 1,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}
