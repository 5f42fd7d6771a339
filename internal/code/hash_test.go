package code

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestHash(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "x.sh")
	if err := os.WriteFile(script, []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := Code{Files: []File{{Path: "/usr/bin/env", System: true}, {Path: script}, {Path: filepath.Join(dir, "gone.sh")}}, Pinnable: true}
	err := c.Hash()
	if err == nil {
		t.Error("a missing file hashed without an error")
	}
	if c.Files[0].SHA256 != "" {
		t.Error("a system file was hashed")
	}
	if sum := sha256.Sum256([]byte("echo hi\n")); c.Files[1].SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %q", c.Files[1].SHA256)
	}
	if sum, _ := Hash(script); sum != c.Files[1].SHA256 || len(sum) != 64 {
		t.Errorf("Hash %q, Code.Hash %q", sum, c.Files[1].SHA256)
	}
	// A FIFO in place of a file is an error, never a hang.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Hash(fifo); err == nil {
		t.Error("a FIFO hashed")
	}
}
