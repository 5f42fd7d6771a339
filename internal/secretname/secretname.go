// Package secretname says which names hold secrets: environment variables
// (SPEC §13 rule 11) and the keys of a payload (SPEC §26). It is a leaf the
// guard can import: plain string tests, no regular expressions.
package secretname

import "strings"

// varWords are the words of §13 rule 11; PASS covers PASSWORD.
var varWords = []string{"TOKEN", "SECRET", "KEY", "PASS"}

// Var reports whether an environment variable's name suggests a secret:
// it contains TOKEN, SECRET, KEY, PASSWORD or PASS (any case).
func Var(name string) bool {
	up := strings.ToUpper(name)
	for _, w := range varWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// keyWords are §26's: a payload key containing one (any case) holds a
// secret. Narrower than Var's: "key" alone would hide every "key" and
// "monkey" argument a hook policy is about.
var keyWords = []string{"token", "secret", "password", "passwd", "api_key", "apikey", "api-key",
	"authorization", "cookie", "private_key", "credential"}

// Key reports whether a JSON key names a secret (SPEC §26).
func Key(name string) bool {
	low := strings.ToLower(name)
	for _, w := range keyWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
