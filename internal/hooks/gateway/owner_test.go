package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes/internal/safepath"
)

func TestCheckOwnership(t *testing.T) {
	root := t.TempDir()
	c := safepath.New(os.Getuid())
	if err := c.Check(root); err != nil {
		t.Skipf("the temporary folder is not safe itself: %v", err)
	}
	dir := filepath.Join(root, "hooks", "h")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{ManifestName: 0o644, HandlerExec: 0o755} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("events: [session:start]\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	judge := func() error {
		hooks := []Hook{{Name: "h", Dir: dir, Handler: HandlerExec}}
		CheckOwnership(hooks, safepath.New(os.Getuid()))
		return hooks[0].Unsafe
	}
	if err := judge(); err != nil {
		t.Fatalf("a private hook: %v", err)
	}
	for _, p := range []string{filepath.Join(dir, ManifestName), filepath.Join(dir, HandlerExec), dir, filepath.Dir(dir)} {
		fi, _ := os.Stat(p)
		if err := os.Chmod(p, fi.Mode().Perm()|0o002); err != nil {
			t.Fatal(err)
		}
		if err := judge(); err == nil || !strings.Contains(err.Error(), p+" ") {
			t.Errorf("%s writable by others: %v", p, err)
		}
		if err := os.Chmod(p, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}
