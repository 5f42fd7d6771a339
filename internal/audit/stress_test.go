package audit

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The stress test's writers are this test binary run again with
// HERMES_AUDIT_WRITER=<home>:<id>:<lines>:<rotate size>.
func TestMain(m *testing.M) {
	if spec := os.Getenv("HERMES_AUDIT_WRITER"); spec != "" {
		os.Exit(stressWriter(spec))
	}
	os.Exit(m.Run())
}

func stressWriter(spec string) int {
	parts := strings.Split(spec, ":")
	id, _ := strconv.Atoi(parts[1])
	n, _ := strconv.Atoi(parts[2])
	rotateSize, _ = strconv.ParseInt(parts[3], 10, 64)
	for i := range n {
		if err := Append(parts[0], rec(fmt.Sprintf("writer %d line %d", id, i))); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestStressConcurrentWriters: 8 processes append at once, the log rotates
// once meanwhile, and no line is lost, torn or glued to another. `make
// stress` (HERMES_STRESS=1) runs the full 8 × 10,000; go test runs 8 × 500.
func TestStressConcurrentWriters(t *testing.T) {
	const writers = 8
	lines := 500
	if os.Getenv("HERMES_STRESS") != "" {
		lines = 10000
	} else if testing.Short() {
		t.Skip("-short")
	}
	home := t.TempDir()
	one := len(encodeForTest(t, rec(fmt.Sprintf("writer %d line %d", writers, lines))))
	// Rotate once, about two thirds in: both files must be read back whole.
	rotate := int64(one*writers*lines) * 2 / 3
	var cmds []*exec.Cmd
	for id := range writers {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), fmt.Sprintf("HERMES_AUDIT_WRITER=%s:%d:%d:%d", home, id, lines, rotate))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	if _, err := os.Stat(RotatedPath(Path(home))); err != nil {
		t.Fatalf("the log never rotated: %v", err)
	}
	seen := make([][]bool, writers)
	for i := range seen {
		seen[i] = make([]bool, lines)
	}
	next := make([]int, writers)
	for _, l := range readLines(t, home) {
		var id, n int
		if _, err := fmt.Sscanf(l.Command, "writer %d line %d", &id, &n); err != nil || id >= writers || n >= lines {
			t.Fatalf("foreign line %q", l.Raw)
		}
		if seen[id][n] {
			t.Fatalf("line written twice: %q", l.Raw)
		}
		if n != next[id] {
			t.Fatalf("writer %d: line %d after %d (lost or reordered)", id, n, next[id]-1)
		}
		seen[id][n] = true
		next[id]++
	}
	for id, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d of %d lines in the log", id, n, lines)
		}
	}
}

func encodeForTest(t *testing.T, r Record) []byte {
	t.Helper()
	home := t.TempDir()
	if err := Append(home, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(Path(home))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
