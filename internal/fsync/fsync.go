// Package fsync makes a rename durable: the folder that holds the new name
// is synced, as every atomic write of hermes does after its rename.
package fsync

import (
	"os"

	"golang.org/x/sys/unix"
)

// Dir syncs the folder dir, so that a file renamed or linked into it is
// still there after a crash.
func Dir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// FS flushes every file of the file system dir is on (syncfs(2)): one
// call where a batch of new files would each need an fsync.
func FS(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return unix.Syncfs(int(d.Fd()))
}
