package scan

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// fixture copies testdata/checkout (modes kept) into a temporary folder and
// gives it the .git/config of testdata/gitconfig: git will not commit a
// .git folder, so the fixture's is written here.
func fixture(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "checkout")
	copyTree(t, "testdata/checkout", dst)
	cfg, err := os.ReadFile("testdata/gitconfig")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dst, ".git", "config"), string(cfg), 0o644)
	return dst
}

func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeFile(t testing.TB, p, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// scanOpts are the options every test scans with: a home of its own and
// the system's PATH only.
func scanOpts(t testing.TB) Options {
	return Options{Home: filepath.Join(t.TempDir(), "home"), Path: "/usr/bin:/bin"}
}

func mustScan(t testing.TB, dir string) *Result {
	t.Helper()
	r, err := Scan(dir, scanOpts(t))
	if err != nil {
		t.Fatal(err)
	}
	return r
}
