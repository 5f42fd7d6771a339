package code

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// Open opens a file of the code for hashing and returns it with its
// sha256, read through the descriptor it keeps: the guard starts a
// compiled program from that descriptor (execveat), so what was hashed is
// what runs. The file is left at its end; the caller closes it.
func Open(path string) (*os.File, string, error) {
	// O_NONBLOCK: a FIFO put in place of the file cannot hang the open.
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, "", err
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, "", err
	}
	if !fi.Mode().IsRegular() {
		fh.Close()
		return nil, "", fmt.Errorf("%s is not a regular file", path)
	}
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		fh.Close()
		return nil, "", fmt.Errorf("read %s: %w", path, err)
	}
	return fh, hex.EncodeToString(h.Sum(nil)), nil
}

// Hash is the sha256 of the regular file at path now.
func Hash(path string) (string, error) {
	fh, sum, err := Open(path)
	if err != nil {
		return "", err
	}
	fh.Close()
	return sum, nil
}

// Hash fills the sha256 of every file of c that is not a system file, now.
// A file that cannot be hashed keeps "" and is named in the error; the
// others are still hashed.
func (c *Code) Hash() error {
	var errs []error
	for i := range c.Files {
		if c.Files[i].System {
			continue
		}
		sum, err := Hash(c.Files[i].Path)
		c.Files[i].SHA256 = sum
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
