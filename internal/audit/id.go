package audit

import (
	"crypto/rand"
	"encoding/hex"
)

// NewID is a new firing id: 128 random bits in lower-case hex (32
// characters), the "id" every line of one firing carries (SPEC §26, §29
// item 5). The record branch makes them with record.NewID; this is the
// same, for the guard and its witness until the two meet.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux (getrandom)
	return hex.EncodeToString(b[:])
}
