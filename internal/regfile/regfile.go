// Package regfile reads files that must be regular files (the config, the
// allowlist, HOOK.yaml, a payload file). Opening a FIFO for reading blocks
// until a writer appears, and reading a device or a directory means
// nothing; each is refused with a NotRegularError, never a hang.
package regfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError says path exists but is not a regular file.
type NotRegularError struct {
	Path string
	Kind string // "a directory", "a FIFO (named pipe)", ...
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, e.Kind)
}

// Kind names what a file of this mode is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// Open opens path for reading only if it is a regular file (symlinks
// followed). The file is looked at before it is opened, so a device is
// never opened, and opened with O_NONBLOCK and looked at again, so a FIFO
// swapped in between cannot block the open.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err = f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	return f, nil
}

// ReadFile is os.ReadFile for a file that must be regular. Like
// os.ReadFile it sizes its buffer from the file, so a large allowlist is
// read in one allocation rather than grown and copied.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<30 {
		size = int(fi.Size())
	}
	data := make([]byte, 0, size+1) // +1: EOF is seen without growing
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if len(data) == cap(data) { // the file grew while we read it
			data = append(data, 0)[:len(data)]
		}
	}
}
