package record

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/secretname"
)

// Mask is what a secret is replaced by.
const Mask = "***"

// minSecret is the shortest variable value that is masked: shorter values
// ("1", "yes") would mask ordinary text everywhere and hide nothing.
const minSecret = 4

// Secrets are the values to hide wherever they appear in a payload.
type Secrets struct {
	values   []string // longest first, so a value inside another is not half-masked
	replacer *strings.Replacer
}

// EnvSecrets collects the values of the secret-named variables of environ
// (SPEC §13 rule 11 names, values of at least 4 characters).
func EnvSecrets(environ []string) Secrets {
	var vals []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if ok && len(value) >= minSecret && secretname.Var(name) {
			vals = append(vals, value)
		}
	}
	sort.SliceStable(vals, func(i, j int) bool { return len(vals[i]) > len(vals[j]) })
	s := Secrets{values: vals}
	if len(vals) > 0 {
		pairs := make([]string, 0, 2*len(vals))
		for _, v := range vals {
			pairs = append(pairs, v, Mask)
		}
		s.replacer = strings.NewReplacer(pairs...)
	}
	return s
}

// mask replaces every secret value in s.
func (s Secrets) mask(str string) string {
	if s.replacer == nil {
		return str
	}
	return s.replacer.Replace(str)
}

// contains reports whether str holds a secret value.
func (s Secrets) contains(str string) bool {
	for _, v := range s.values {
		if strings.Contains(str, v) {
			return true
		}
	}
	return false
}

// Redact returns the wire payload with every secret value replaced by
// Mask, in keys and strings at any depth (a number that holds one becomes
// the string Mask), and the value of every secret-named key (SPEC §26),
// whatever it holds, replaced by Mask. Numbers are kept as written. A
// payload that is not JSON is masked as bytes, in its raw and its
// JSON-escaped spellings.
func Redact(wire []byte, s Secrets) []byte {
	v, err := pyjson.Decode(wire)
	if err != nil {
		return s.maskBytes(wire)
	}
	return pyjson.Marshal(s.redact(v), pyjson.Options{KeepNumbers: true})
}

func (s Secrets) redact(v any) any {
	switch t := v.(type) {
	case *pyjson.Object:
		out := pyjson.NewObject()
		for _, m := range t.Members() {
			key := s.mask(m.Key)
			if secretname.Key(m.Key) {
				out.Set(key, Mask)
			} else {
				out.Set(key, s.redact(m.Value))
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = s.redact(e)
		}
		return out
	case string:
		return s.mask(t)
	case json.Number:
		if s.contains(string(t)) {
			return Mask
		}
	}
	return v
}

// maskBytes masks each secret as it is and as JSON would escape it.
func (s Secrets) maskBytes(b []byte) []byte {
	for _, v := range s.values {
		b = bytes.ReplaceAll(b, []byte(v), []byte(Mask))
		var q bytes.Buffer
		pyjson.WriteString(&q, v)
		if esc := q.Bytes(); len(esc) > 2 && !bytes.Equal(esc[1:len(esc)-1], []byte(v)) {
			b = bytes.ReplaceAll(b, esc[1:len(esc)-1], []byte(Mask))
		}
	}
	return b
}
