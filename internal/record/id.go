package record

import (
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// NewID is a new firing id: 128 random bits in lower-case hex (32
// characters). Every audit line of one firing carries it, and the firing's
// payload file is named by it.
func NewID() string {
	var b [16]byte
	// getrandom(2) itself, as crypto/rand does, without the vDSO
	// generator whose state crypto/rand maps on first use (and the
	// packages it links): the guard takes one id per tool call (SPEC §24
	// item 10). A kernel without getrandom (before 3.17) has /dev/urandom.
	if n, err := unix.Getrandom(b[:], 0); err != nil || n != len(b) {
		f, err := os.Open("/dev/urandom")
		if err == nil {
			_, err = io.ReadFull(f, b[:])
			f.Close()
		}
		if err != nil {
			// No randomness at all: unique still, by time and process.
			binary.LittleEndian.PutUint64(b[:8], uint64(time.Now().UnixNano()))
			binary.LittleEndian.PutUint64(b[8:], uint64(os.Getpid()))
		}
	}
	return hex.EncodeToString(b[:])
}

// ValidID reports whether s has NewID's shape: an audit line is never
// trusted to name a file outside the store.
func ValidID(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
