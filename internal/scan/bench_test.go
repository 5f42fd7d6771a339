package scan

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkScan10kFiles scans the fixture checkout grown to 10,000 files
// (SPEC §27's figure): the scan reads its table's paths, not the tree, so
// the checkout's size should not matter.
func BenchmarkScan10kFiles(b *testing.B) {
	dir := fixture(b)
	for i := 0; i < 10000; i++ {
		writeFile(b, filepath.Join(dir, "src", fmt.Sprintf("pkg%03d", i/100), fmt.Sprintf("file%05d.go", i)),
			"package p\n", 0o644)
	}
	opt := scanOpts(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := Scan(dir, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScan1000Hooks scans a checkout whose Copilot folder holds 1,000
// hook files, each naming its own script: the cost grows with hooks.
func BenchmarkScan1000Hooks(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 1000; i++ {
		writeFile(b, filepath.Join(dir, ".github/hooks", fmt.Sprintf("h%04d.json", i)),
			fmt.Sprintf(`{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./scripts/s%04d.sh"}]}}`, i), 0o644)
		writeFile(b, filepath.Join(dir, "scripts", fmt.Sprintf("s%04d.sh", i)), "#!/bin/sh\nexit 0\n", 0o755)
	}
	opt := scanOpts(b)
	b.ResetTimer()
	for b.Loop() {
		r, err := Scan(dir, opt)
		if err != nil || len(r.Hooks) != 1000 {
			b.Fatal(err, len(r.Hooks))
		}
	}
}
