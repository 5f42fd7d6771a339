package lockfile

import (
	"bytes"
	"encoding/json"
)

// DuplicateKey finds the first key that appears twice in one object of
// data, with its line: encoding/json keeps the last silently, so a lock
// edited to hold two "fail_closed" keys would read as whichever came last.
// ok false when there is none (or data is not JSON: Parse says so then).
func DuplicateKey(data []byte) (key string, line int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]bool
		expect bool // the next string token is a key
	}
	var stack []*frame
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, isStr := tok.(string); isStr && top != nil && top.object && top.expect {
			if top.keys[s] {
				return s, 1 + bytes.Count(data[:keyStart(data, off)], []byte("\n")), true
			}
			top.keys[s] = true
			top.expect = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, expect: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		// A value ended: in an object, a key comes next.
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].expect = true
		}
	}
}

// keyStart skips the separators after off to where the key's quote is.
func keyStart(data []byte, off int64) int {
	i := int(off)
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t' || data[i] == ',') {
		i++
	}
	return i
}
