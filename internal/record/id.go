package record

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID is a new firing id: 128 random bits in lower-case hex (32
// characters). Every audit line of one firing carries it, and the firing's
// payload file is named by it.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux (getrandom)
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
