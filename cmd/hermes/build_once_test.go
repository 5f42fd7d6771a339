package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes/internal/proctest"
)

// builtOnce builds a main package of the module once per test binary into
// a folder of its own, and gives each caller its own hard link to it (a
// link, never a copy: a copy open for writing while other tests fork makes
// running it fail with "text file busy"). Twenty-odd tests build hermes;
// one build is enough.
type builtOnce struct {
	pkg, name string
	once      sync.Once
	path      string
	err       error
}

var (
	hermesBuild = &builtOnce{pkg: "github.com/hermes-hooks/hermes/cmd/hermes", name: "hermes"}
	guardBuild  = &builtOnce{pkg: "github.com/hermes-hooks/hermes/cmd/hermes-guard", name: "hermes-guard"}
)

// shippedFlags are `make build`'s (with CGO_ENABLED=0 in the
// environment): the tests and benchmarks run the binary as it is shipped,
// static and stripped.
var shippedFlags = []string{"-trimpath", "-ldflags=-s -w"}

// linkInto puts the built program at dir/name and returns that path.
func (b *builtOnce) linkInto(t testing.TB, dir string) string {
	t.Helper()
	b.once.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			b.err = fmt.Errorf("building %s needs the go command: %v", b.name, err)
			return
		}
		tmp, err := os.MkdirTemp("", "hermes-test-build-")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(tmp, b.name)
		build := exec.Command(goBin, append(append([]string{"build"}, shippedFlags...), "-o", b.path, b.pkg)...)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
		} else {
			b.err = proctest.Land(b.path)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	dst := filepath.Join(dir, b.name)
	if err := os.Link(b.path, dst); err != nil {
		t.Fatalf("linking %s: %v", b.name, err)
	}
	return dst
}

// removingBuilds runs the tests, then removes what builtOnce built.
type removingBuilds struct{ m *testing.M }

func (r removingBuilds) Run() int {
	code := r.m.Run()
	for _, b := range []*builtOnce{hermesBuild, guardBuild} {
		if b.path != "" {
			os.RemoveAll(filepath.Dir(b.path))
		}
	}
	return code
}
