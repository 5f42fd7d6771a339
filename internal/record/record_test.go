package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewID()
		if !ValidID(id) {
			t.Fatalf("NewID() = %q: not 32 lower-case hex digits", id)
		}
		if seen[id] {
			t.Fatalf("NewID() repeated %q", id)
		}
		seen[id] = true
	}
	for _, bad := range []string{"", "../../etc/passwd", strings.Repeat("A", 32), strings.Repeat("a", 31), strings.Repeat("0", 31) + "/"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q) = true", bad)
		}
	}
}

func TestScanConfig(t *testing.T) {
	for _, tc := range []struct {
		config string
		on     bool
		max    int64
		prob   bool
	}{
		{"", false, DefaultMax, false},
		{"hooks_record: true\n", true, DefaultMax, false},
		{"hooks_record: yes # PyYAML reads yes as true\n", true, DefaultMax, false},
		{"hooks_record: On\r\n", true, DefaultMax, false},
		{"hooks_record: \"true\"\n", false, DefaultMax, false}, // a string, not a boolean
		{"hooks_record: false\n", false, DefaultMax, false},
		{"hooks_record: 1\n", false, DefaultMax, false}, // an int, not a boolean
		{"hooks_record:\n", false, DefaultMax, false},
		{"hooks:\n  hooks_record: true\n", false, DefaultMax, false}, // not at column 0
		{"# hooks_record: true\n", false, DefaultMax, false},
		{"hooks_recordx: true\n", false, DefaultMax, false},
		{"hooks_record: true\nhooks_record: false\n", false, DefaultMax, false}, // the last one wins, as in PyYAML
		{"hooks_record: true\nhooks_record_max: 1GiB\n", true, 1 << 30, false},
		{"hooks_record_max: 1000\n", false, 1000, false},
		{"hooks_record_max: '2 MiB'\n", false, 2 << 20, false},
		{"hooks_record_max: lots\n", false, DefaultMax, true},
		{"hooks_record_max: -5\n", false, DefaultMax, true},
	} {
		got := ScanConfig([]byte(tc.config))
		if got.On != tc.on || got.Max != tc.max || (got.MaxProblem != "") != tc.prob {
			t.Errorf("ScanConfig(%q) = %+v, want on %t, max %d, problem %t", tc.config, got, tc.on, tc.max, tc.prob)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"64MiB": 64 << 20, "1GiB": 1 << 30, "512": 512, "10 KiB": 10 << 10, "1MB": 1e6, "3kib": 3 << 10, "100B": 100} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "1.5GiB", "0", "12 parsecs", "99999999999999999999", "9000000000TiB"} {
		if _, err := ParseSize(in); err == nil || !strings.Contains(err.Error(), "hooks_record_max") {
			t.Errorf("ParseSize(%q): error %v, want one naming hooks_record_max", in, err)
		}
	}
}

func TestLoadEnvironmentWins(t *testing.T) {
	home := t.TempDir()
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == EnvVar {
				return v
			}
			return ""
		}
	}
	if Load(home, env("")).On {
		t.Error("no config, no variable: recording is on")
	}
	if !Load(home, env("1")).On {
		t.Error("HERMES_HOOKS_RECORD=1 without config: recording is off")
	}
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("hooks_record: true\nhooks_record_max: 1MiB\n"), 0o600)
	if s := Load(home, env("")); !s.On || s.Max != 1<<20 {
		t.Errorf("config on: got %+v", s)
	}
	if Load(home, env("0")).On {
		t.Error("HERMES_HOOKS_RECORD=0 did not win over the config")
	}
	if s := Load(home, env("maybe")); !s.On {
		t.Error("an unreadable HERMES_HOOKS_RECORD did not leave the decision to the config")
	}
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte("hooks_record: off\n"), 0o600)
	if s := Load(home, env("1")); !s.On || s.Max != DefaultMax {
		t.Errorf("HERMES_HOOKS_RECORD=1 over a config saying off: got %+v", s)
	}
	// A FIFO where the config is must not hang the guard.
	fifoHome := t.TempDir()
	if err := mkfifo(filepath.Join(fifoHome, "config.yaml")); err == nil {
		if Load(fifoHome, env("")).On {
			t.Error("a FIFO config turned recording on")
		}
	}
}

// The guard imports this package on every agent tool call (SPEC §17's
// speed bar).
func TestRecordStaysLean(t *testing.T) {
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"spf13/cobra", "spf13/viper", "AlecAivazis/survey", "yaml", "regexp2", "regexp", "fsnotify", "internal/hooks", "internal/config"} {
			if strings.Contains(dep, heavy) {
				t.Errorf("internal/record depends on %s", dep)
			}
		}
	}
}

func TestLoadPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "elsewhere.yaml")
	os.WriteFile(path, []byte("hooks_record: true\n"), 0o600)
	none := func(string) string { return "" }
	if !LoadPath(path, none).On {
		t.Error("LoadPath did not read the config named")
	}
	if LoadPath("", none).On || LoadPath(path+".missing", none).On {
		t.Error("no config: recording is on")
	}
}
