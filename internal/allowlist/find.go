package allowlist

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/hermes-hooks/hermes/internal/regfile"
)

// FindFirst reads the allowlist for one lookup, the guard's on every tool
// call: the list it returns holds only the first entry of event whose
// command match accepts (none when there is none). It does not decode the
// other entries or index them, so a firing costs little more with 100,000
// entries than with one (SPEC §29 item 3): the file is mapped, its
// structure walked (strings skipped with a byte search), and only the
// entry found is read.
//
// The walk checks the structure (every string, object and list closed, one
// top-level object) but not each number and word of every other entry;
// what the agent or hermes writes is always valid JSON. Anything unusual —
// an item that is not an object, "approvals" that is not a list, a
// structure that does not close, text that is not UTF-8 in the entry
// found — is read the slow way, by Read, with its warnings.
//
// match must not keep the string it is given.
func (s *Store) FindFirst(event string, match func(command string) bool) (*List, []string, error) {
	return s.FindFirstNoted(event, "", match)
}

// FindFirstNoted is FindFirst that keeps a note, named note, of where it
// found the entry and in which version of the file (device, inode, size,
// change time): the next lookup of the same hook in the same file reads
// that entry alone, checks it is still the hook's, and skips the walk
// (findnote.go). "" keeps no note.
func (s *Store) FindFirstNoted(event, note string, match func(command string) bool) (*List, []string, error) {
	f, err := regfile.Open(s.Path)
	if errors.Is(err, fs.ErrNotExist) {
		l := &List{}
		l.Index()
		return l, nil, nil
	}
	if err != nil {
		return s.findSlow(event, match)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 || fi.Size() > 1<<31 {
		return s.findSlow(event, match)
	}
	id, noted := fileID(fi), ""
	if note != "" {
		noted = s.notePath(note)
		if e, ok := readNoted(f, noted, id, event, match); ok {
			l := &List{Approvals: []Entry{e}}
			l.Index()
			return l, nil, nil
		}
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return s.findSlow(event, match)
	}
	item, ok := findItem(data, event, match)
	at := int64(len(data) - cap(item)) // item is data[at:at+len(item)]
	item = bytes.Clone(item)           // the entry outlives the mapping
	syscall.Munmap(data)
	if !ok || item != nil && !utf8.Valid(item) {
		return s.findSlow(event, match)
	}
	l := &List{}
	if item != nil {
		e, ok := entryFrom(item, newText(item))
		if !ok {
			return s.findSlow(event, match)
		}
		l.Approvals = []Entry{e}
		if noted != "" {
			writeNote(noted, id, at, int64(len(item)))
		}
	}
	l.Index()
	return l, nil, nil
}

// findSlow is FindFirst by Read.
func (s *Store) findSlow(event string, match func(string) bool) (*List, []string, error) {
	full, warnings, err := s.Read()
	if err != nil {
		return nil, warnings, err
	}
	l := &List{}
	for _, e := range full.Approvals {
		if e.Event == event && match(e.Command) {
			l.Approvals = []Entry{e}
			break
		}
	}
	l.Index()
	return l, warnings, nil
}

// findItem walks data (the file) to the last "approvals" member of its
// top-level object and returns the first of its items whose event is
// event and whose command match accepts: nil when none is. ok is false
// when the text is not the usual shape (see FindFirst). One pass: strings
// are skipped with a byte search, the few bytes between them looked at
// one by one.
func findItem(data []byte, event string, match func(string) bool) (item []byte, ok bool) {
	data = bytes.TrimPrefix(data, utf8BOM)
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil, skipSpace(data, i+1) == len(data)
	}
	var found []byte
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}
		kend := stringEnd(data, i)
		if data[kend-1] != '"' || kend-1 == i {
			return nil, false
		}
		key := data[i:kend]
		i = skipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		var vend int
		if string(keyBytes(key)) == "approvals" {
			// The last "approvals" counts, as in Python.
			if i >= len(data) || data[i] != '[' {
				return nil, false
			}
			var odd bool
			vend, found, odd = findInList(data, i, event, match)
			if odd {
				return nil, false
			}
		} else {
			vend = checkedValueEnd(data, i)
		}
		if vend < 0 {
			return nil, false
		}
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return found, skipSpace(data, i+1) == len(data)
		}
		return nil, false
	}
}

// Which member of an item a string is the value of.
const (
	memberOther = iota
	memberEvent
	memberCommand
)

// findInList walks the list starting at data[i] ('['): the index past its
// end (-1 when it does not close), the first item found, and odd when an
// item is not an object with a string event and command.
func findInList(data []byte, i int, event string, match func(string) bool) (end int, found []byte, odd bool) {
	depth, itemAt := 0, 0
	expectKey, member := false, memberOther
	var ev, cmd []byte
	for ; i < len(data); i++ {
		// Indentation and colons are most of what lies between strings.
		for i < len(data) && quiet[data[i]] {
			i++
		}
		if i == len(data) {
			break
		}
		switch data[i] {
		case '"':
			send := quickStringEnd(data, i)
			if send < 0 {
				return -1, nil, false
			}
			switch {
			case depth == 1:
				return -1, nil, true // an item that is a string
			case depth != 2 || found != nil:
			case expectKey:
				expectKey = false
				switch lit := data[i:send]; {
				case isKey(lit, keyEvent):
					member = memberEvent
				case isKey(lit, keyCommand):
					member = memberCommand
				default:
					member = memberOther
				}
			case member == memberEvent:
				ev = data[i:send]
			case member == memberCommand:
				cmd = data[i:send]
			}
			i = send - 1
		case '{', '[':
			depth++
			if depth == 2 {
				if data[i] != '{' {
					return -1, nil, true
				}
				itemAt, expectKey, member, ev, cmd = i, true, memberOther, nil, nil
			}
		case '}', ']':
			if depth == 2 && found == nil {
				if ev == nil || cmd == nil {
					return -1, nil, true // Read warns about it
				}
				if (len(ev) == len(event)+2 && string(ev[1:len(ev)-1]) == event || borrowed(ev) == event) && match(borrowed(cmd)) {
					found = data[itemAt : i+1]
				}
			}
			if depth--; depth == 0 {
				return i + 1, found, false
			}
		case ',':
			if depth == 2 {
				expectKey, member = true, memberOther
			}
		default:
			if depth == 1 {
				return -1, nil, true // an item that is a number or a word
			}
			if depth == 2 {
				member = memberOther // a number, true, false or null
			}
		}
	}
	return -1, nil, false
}

// quiet are the bytes findInList passes over between strings.
var quiet = [256]bool{' ': true, '\t': true, '\n': true, '\r': true, ':': true}

// quickStringEnd is the index past the string starting at data[i] (a
// quote), -1 when it does not close: a byte search for the next quote,
// which closes the string unless a backslash precedes it (then the
// careful way).
func quickStringEnd(data []byte, i int) int {
	q := bytes.IndexByte(data[i+1:], '"')
	if q < 0 {
		return -1
	}
	q += i + 1
	if data[q-1] != '\\' || q-1 == i {
		return q + 1
	}
	if end := stringEnd(data, i); data[end-1] == '"' && end-1 > i {
		return end
	}
	return -1
}

// isKey reports whether the literal lit spells key: compared as bytes
// when it has no escapes, which is always so in a file hermes or the
// agent wrote.
func isKey(lit []byte, key string) bool {
	if len(lit) == len(key)+2 {
		return string(lit[1:len(lit)-1]) == key
	}
	return bytes.IndexByte(lit, '\\') >= 0 && string(keyBytes(lit)) == key
}

// borrowed is the string a literal spells, sharing the literal's memory
// when it has no escapes: valid only while the file is mapped, so match
// must not keep it.
func borrowed(lit []byte) string {
	if len(lit) > 2 && bytes.IndexByte(lit, '\\') < 0 {
		return unsafe.String(&lit[1], len(lit)-2)
	}
	return unquote(lit)
}

// checkedValueEnd is valueEnd for text not yet validated: -1 when the
// value starting at data[i] does not close before the end.
func checkedValueEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		end := stringEnd(data, i)
		if end > len(data) || data[end-1] != '"' || end-1 == i {
			return -1
		}
		return end
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				end := stringEnd(data, i)
				if data[end-1] != '"' || end-1 == i {
					return -1
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	}
	end := valueEnd(data, i)
	if end == i {
		return -1
	}
	return end
}
