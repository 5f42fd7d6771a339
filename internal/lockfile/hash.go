package lockfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// hashFile is the sha256 of a regular file, "" (no error) for anything
// else (a FIFO is never opened for reading: it could block).
func hashFile(path string) (string, error) {
	f, err := regfile.Open(path)
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
