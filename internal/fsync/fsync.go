// Package fsync makes a rename durable: the folder that holds the new name
// is synced, as every atomic write of hermes does after its rename.
package fsync

import "os"

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
