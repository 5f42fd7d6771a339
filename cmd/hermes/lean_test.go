package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The agent starts hermes for every run-event, so what hermes links and
// initialises before main is paid on each tool call (SPEC §24 item 10,
// docs/performance.md). These tests keep what issue 29 took out from
// coming back; none of them times anything.

// TestHermesStaysLean: viper, and the dependencies only it brought, are
// not linked (cli.Settings holds the global flags).
func TestHermesStaysLean(t *testing.T) {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	banned := []string{"github.com/spf13/viper", "go.yaml.in/yaml", "github.com/subosito/gotenv",
		"github.com/spf13/cast", "github.com/spf13/afero", "github.com/sagikazarmark/locafero",
		"github.com/go-viper/mapstructure", "github.com/sourcegraph/conc"}
	for _, dep := range strings.Fields(string(out)) {
		for _, b := range banned {
			if dep == b || strings.HasPrefix(dep, b+"/") {
				t.Errorf("hermes depends on %s", dep)
			}
		}
	}
}

// TestShippedHermesIsStatic: make build and make install build hermes
// without cgo and stripped, so no dynamic loader runs at its start; the
// binary the tests build the same way has no interpreter.
func TestShippedHermesIsStatic(t *testing.T) {
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed")
	}
	for _, target := range []string{"build", "install"} {
		cmd := exec.Command(makePath, "-n", target, "DESTDIR="+t.TempDir())
		cmd.Dir = filepath.Join("..", "..")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		built := false
		for _, line := range strings.Split(string(out), "\n") {
			if !strings.Contains(line, " build ") || !strings.Contains(line, "hermes") {
				continue
			}
			built = true
			if !strings.Contains(line, "CGO_ENABLED=0") || !strings.Contains(line, "-s -w") || !strings.Contains(line, "-trimpath") {
				t.Errorf("make %s builds without CGO_ENABLED=0, -trimpath and -s -w:\n%s", target, line)
			}
		}
		if !built {
			t.Errorf("make -n %s builds nothing:\n%s", target, out)
		}
	}
	f, err := elf.Open(buildHermes(t))
	if err != nil {
		t.Skipf("not an ELF binary here: %v", err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the hermes the tests build needs a dynamic loader (PT_INTERP)")
		}
	}
}

// TestHermesInitAllocatesLittle: this module's own packages allocate
// little before main (GODEBUG=inittrace=1), so regular expressions and
// tables are built on first use (sync.OnceValue), not by every run.
// Before issue 29's first pass, internal/scan's patterns alone were 118 KB.
func TestHermesInitAllocatesLittle(t *testing.T) {
	const budget = 32 << 10 // about 20 KB in December 2026
	cmd := exec.Command(buildHermes(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hermes version: %v\n%s", err, out)
	}
	total, seen := 0, 0
	var per []string
	for _, line := range strings.Split(string(out), "\n") {
		// init github.com/hermes-hooks/hermes/internal/code @5.1 ms, 0.023 ms clock, 8784 bytes, 74 allocs
		f := strings.Fields(line)
		if len(f) < 8 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/hermes-hooks/hermes/") {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("cannot read the bytes of %q", line)
		}
		seen++
		total += n
		per = append(per, f[1]+" "+f[7])
	}
	if seen == 0 {
		t.Fatalf("no init line of this module in:\n%s", out)
	}
	if total > budget {
		t.Errorf("this module's packages allocate %d bytes at init (budget %d):\n%s", total, budget, strings.Join(per, "\n"))
	}
}
