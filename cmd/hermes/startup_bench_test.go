package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The whole-process benchmarks compare hermes with programs built in the
// benchmark, run interleaved so that machine noise (the development
// machine is shared) hits every program alike. Ratios are of medians: a
// single run delayed by another process's burst moves a sum, not a median.

// buildHello builds a Go hello-world into dir: the cost of starting any Go
// program here.
func buildHello(b *testing.B, dir string) string {
	b.Helper()
	src := filepath.Join(dir, "hello")
	writeProgram(b, src, "package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"hello\\n\") }\n", false)
	return buildProgram(b, src)
}

// buildFloor builds into dir a program that imports every package this
// module's code imports from outside the module (the standard library,
// cobra, viper, yaml.v3, survey, regexp2...) and exits: what start-up
// costs before any line of hermes runs, given its dependencies. It takes
// the list from `go list`, so it follows the imports as they change.
func buildFloor(b *testing.B, dir string) (bin string, imports []string) {
	b.Helper()
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Module,Imports", ".").Output()
	if err != nil {
		b.Fatalf("go list: %v", err)
	}
	const self = "github.com/hermes-hooks/hermes"
	set := map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Module     *struct{ Path string }
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			b.Fatal(err)
		}
		if p.Module == nil || p.Module.Path != self {
			continue
		}
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, self+"/") && !strings.HasPrefix(imp, "vendor/") {
				set[imp] = true
			}
		}
	}
	for imp := range set {
		imports = append(imports, imp)
	}
	slices.Sort(imports)
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, imp := range imports {
		fmt.Fprintf(&src, "\t_ %q\n", imp)
	}
	src.WriteString(")\n\nfunc main() {}\n")
	srcDir := filepath.Join(dir, "floor")
	writeProgram(b, srcDir, src.String(), true)
	return buildProgram(b, srcDir), imports
}

// writeProgram writes main.go into dir; withDeps gives it a go.mod
// requiring exactly this module's versions of everything.
func writeProgram(b *testing.B, dir, src string, withDeps bool) {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	mod := "module floor\n\ngo 1.22\n"
	if withDeps {
		data, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
		if err != nil {
			b.Fatal(err)
		}
		mod = strings.Replace(string(data), "module github.com/hermes-hooks/hermes", "module floor", 1)
		sum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
}

func buildProgram(b *testing.B, dir string) string {
	b.Helper()
	bin := filepath.Join(dir, "prog")
	build := exec.Command("go", "build", "-mod=mod", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", dir, err, out)
	}
	return bin
}

// timedRuns runs each command once per iteration, in an order rotated
// every iteration, and returns each one's run times. The benchmark timer
// runs only around the first command.
func timedRuns(b *testing.B, cmds ...func() *exec.Cmd) [][]time.Duration {
	b.Helper()
	times := make([][]time.Duration, len(cmds))
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		for k := range cmds {
			j := (i + k) % len(cmds)
			cmd := cmds[j]()
			if j == 0 {
				b.StartTimer()
			}
			t0 := time.Now()
			err := cmd.Run()
			d := time.Since(t0)
			if j == 0 {
				b.StopTimer()
			}
			if err != nil {
				b.Fatalf("%s: %v", cmd.Path, err)
			}
			times[j] = append(times[j], d)
		}
	}
	return times
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkStartup measures `hermes version` against a Go hello-world and
// against the floor program of buildFloor, all three built here. The
// target (issue 13): hermes within 10% of the floor (ratio-floor ≤ 1.10).
//
// ns/op is the mean `hermes version`; *-med-ms the medians; ratio-hello
// and ratio-floor quotients of the medians.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	hermes := buildHermes(b)
	hello := buildHello(b, dir)
	floor, _ := buildFloor(b, dir)
	quiet := func(path string, args ...string) func() *exec.Cmd {
		return func() *exec.Cmd {
			cmd := exec.Command(path, args...)
			cmd.Env = os.Environ()
			return cmd
		}
	}
	t := timedRuns(b, quiet(hermes, "version"), quiet(floor), quiet(hello))
	h, f, w := median(t[0]), median(t[1]), median(t[2])
	b.ReportMetric(ms(h), "hermes-med-ms")
	b.ReportMetric(ms(f), "floor-med-ms")
	b.ReportMetric(ms(w), "hello-med-ms")
	b.ReportMetric(float64(h)/float64(f), "ratio-floor")
	b.ReportMetric(float64(h)/float64(w), "ratio-hello")
	b.ReportMetric(float64(f)/float64(w), "floor-ratio-hello")
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
