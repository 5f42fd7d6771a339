package regfile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadFileRefusesWhatIsNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, kind string }{
		{fifo, "a FIFO (named pipe)"},
		{link, "a FIFO (named pipe)"},
		{sock, "a socket"},
		{dir, "a directory"},
		{"/dev/null", "a character device"},
	} {
		_, err := ReadFile(c.path) // a FIFO would block here forever
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != c.kind || nr.Path != c.path {
			t.Errorf("ReadFile(%s) = %v, want a NotRegularError saying %s", c.path, err, c.kind)
		}
	}
}

func TestReadFileRegular(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path)
	if err != nil || string(got) != "data" {
		t.Fatalf("ReadFile = %q, %v", got, err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
}
