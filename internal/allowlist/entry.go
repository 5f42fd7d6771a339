package allowlist

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/hermes-hooks/hermes/internal/code"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Keys of an entry that this package reads and writes.
const (
	keyApprovedAt  = "approved_at"
	keyApprovedVia = "approved_via"
	keyCommand     = "command"
	keyEvent       = "event"
	keyMtime       = "script_mtime_at_approval"
	keySHA256      = "script_sha256_at_approval"
	// Ours (SPEC §23): the agent keeps and ignores them.
	keyCode       = "code"
	keyPinnable   = "pinnable"
	keyUnpinnable = "unpinnable_reason"
)

var knownKeys = []string{keyApprovedAt, keyApprovedVia, keyCommand, keyEvent, keyMtime, keySHA256, keyCode, keyPinnable, keyUnpinnable}

// Values of Entry.ApprovedVia.
const (
	ViaPrompt          = "prompt"
	ViaAccept          = "accept"
	ViaAcceptHooksFlag = "accept-hooks-flag"
	ViaEnv             = "env"
	ViaConfig          = "config"
	// ViaProtect and ViaUnprotect: an approval carried over to the wrapped
	// (or back to the bare) command of a protected hook (SPEC §17).
	ViaProtect   = "protect"
	ViaUnprotect = "unprotect"
)

// Entry is one approval of an (event, command) pair.
type Entry struct {
	Event   string
	Command string
	// ApprovedAt is approved_at as stored ("" when absent or not a string).
	ApprovedAt string
	// ApprovedVia says how approval was given; "" when absent (entries
	// written by the Python agent).
	ApprovedVia string
	// ScriptMtime is script_mtime_at_approval as stored: nil when null or
	// absent; a number is kept as its text.
	ScriptMtime *string
	// ScriptSHA256 is script_sha256_at_approval; "" when absent or null.
	ScriptSHA256 string
	// Code is the hook's code recorded at approval (SPEC §23), in the order
	// found: nil for an approval written before §23 or by the agent, which
	// is then judged on its §4 script as before.
	Code []code.File
	// Unpinnable, when not "", says why the code could not be pinned: the
	// approval is its command string (written as "pinnable": false and
	// "unpinnable_reason").
	Unpinnable string

	// src is the item as read; a rewrite starts from it so keys we do not
	// know survive, and writes back only the known fields a caller changed
	// (a number in approved_at stays a number). It is decoded again only
	// when the list is written, which keeps reading 10,000 entries cheap.
	src json.RawMessage
	// read is the entry as decode read it (nil when not read so): what a
	// write compares it with.
	read *Entry
	// extra holds unknown keys inherited by Approve from a replaced entry.
	extra *pyjson.Object
}

// Key identifies the pair an entry approves.
type Key struct{ Event, Command string }

// Key returns the entry's (event, command).
func (e Entry) Key() Key { return Key{e.Event, e.Command} }

// Pinned reports whether the approval recorded a sha256 of the script, which
// is what lets drift withdraw it (§8.4); Python-agent entries are not pinned.
func (e Entry) Pinned() bool { return e.ScriptSHA256 != "" }

// HasCode reports whether the approval recorded its code (SPEC §23).
func (e Entry) HasCode() bool { return e.Code != nil }

// WithCode records c as the entry's code: its files (hashed by the
// caller) and, when it is not pinnable, why.
func (e Entry) WithCode(c code.Code) Entry {
	e.Code = append([]code.File{}, c.Files...)
	e.Unpinnable = ""
	if !c.Pinnable {
		e.Unpinnable = c.Reason
		if e.Unpinnable == "" {
			e.Unpinnable = "not pinnable"
		}
	}
	return e
}

// MtimeAtApproval parses ScriptMtime. ok is false when nothing usable was
// recorded.
func (e Entry) MtimeAtApproval() (t time.Time, ok bool) {
	if e.ScriptMtime == nil {
		return time.Time{}, false
	}
	return ParseTime(*e.ScriptMtime)
}

// NewEntry records an approval given now for a script whose fingerprint is
// fp: the mtime is null when the script could not be stat'ed and the sha256
// null when it could not be read.
func NewEntry(event, command, via string, fp Fingerprint, now time.Time) Entry {
	e := Entry{Event: event, Command: command, ApprovedAt: FormatTime(now), ApprovedVia: via}
	if !fp.Mtime.IsZero() {
		m := MtimeString(fp.Mtime)
		e.ScriptMtime = &m
	}
	if fp.Err == nil {
		e.ScriptSHA256 = fp.SHA256
	}
	return e
}

// FormatTime writes t the way the allowlist records times: UTC, ISO-8601,
// a Z suffix, and microseconds only when they are not zero (as Python's
// isoformat does), e.g. 2026-11-29T10:11:12.345678Z or 2026-11-28T09:00:00Z.
func FormatTime(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000000Z")
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999", // Python isoformat() of a naive datetime
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
}

// ParseTime reads a recorded time: our format, Python's isoformat with an
// offset or none (taken as UTC), or seconds since the epoch (an os.stat
// st_mtime the agent might store as a number).
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	// Every layout has a ':' and a number none: a number is not tried
	// against the layouts first (four errors made per entry, for every
	// hook a big protect --all decides).
	if strings.IndexByte(s, ':') >= 0 {
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e12 {
		return time.Time{}, false
	}
	return fromTimestamp(f), true
}

// MtimeString is the script_mtime_at_approval the agent computes for a
// file whose modification time is t:
// datetime.fromtimestamp(os.stat(p).st_mtime, tz=utc), written with a Z.
// The agent compares these strings exactly, so an approval recorded here
// must spell the same instant the same way (SPEC §14).
func MtimeString(t time.Time) string { return FormatTime(AgentMtime(t)) }

// AgentMtime is the instant the agent sees for a file modified at t: the
// float st_mtime CPython builds from the stat's seconds and nanoseconds,
// rounded to the microsecond as datetime.fromtimestamp does.
func AgentMtime(t time.Time) time.Time {
	// CPython's fill_time: sec + nsec * 1e-9, in doubles. The conversions
	// stop Go from fusing the multiply and the add (it may on arm64), which
	// would round once instead of twice and differ in the last bit.
	return fromTimestamp(float64(t.Unix()) + float64(float64(t.Nanosecond())*1e-9))
}

// fromTimestamp follows CPython's _PyTime_DoubleToDenominator with
// _PyTime_ROUND_HALF_EVEN, which datetime.fromtimestamp uses: split the
// float into whole and fractional seconds, scale the fraction to
// microseconds, round half to even, and carry a full second
// (1700000000.999999999 → …:21).
func fromTimestamp(f float64) time.Time {
	whole, frac := math.Modf(f)
	us := math.RoundToEven(float64(frac * 1e6))
	switch {
	case us >= 1e6:
		us -= 1e6
		whole++
	case us < 0:
		us += 1e6
		whole--
	}
	return time.Unix(int64(whole), int64(us)*1000).UTC()
}

// written is the entry as the list writes it. An entry read and not
// changed since whose text is already what encoding it writes is that
// text, as it is: decoding and encoding again the 200,000 unchanged
// entries of a protect --all cost a second (SPEC §29 item 2).
func (e Entry) written() any {
	if read, ok := e.asRead(); ok && e.unchangedFrom(read) && pyjson.Canonical(e.src, itemDepth, fileLayout) {
		return e.src
	}
	return e.object()
}

// asRead is the entry as its text reads (ok false when it was not read
// from a file): as decode kept it, else read again from the text (an entry
// found alone, whose text was not checked as part of a whole file).
func (e Entry) asRead() (Entry, bool) {
	switch {
	case e.src == nil:
		return Entry{}, false
	case e.read != nil:
		return *e.read, true
	}
	return entryFrom(e.src, newText(e.src))
}

// unchangedFrom reports whether every field of e is as read (the entry
// its src reads as): TestUnchangedFromSeesEveryField keeps this in step
// with Entry's fields.
func (e Entry) unchangedFrom(read Entry) bool {
	return e.Event == read.Event && e.Command == read.Command && e.ApprovedAt == read.ApprovedAt &&
		e.ApprovedVia == read.ApprovedVia && sameString(e.ScriptMtime, read.ScriptMtime) &&
		e.ScriptSHA256 == read.ScriptSHA256 && sameCode(e.Code, read.Code) && e.Unpinnable == read.Unpinnable
}

// object returns the entry as the JSON object to write.
func (e Entry) object() *pyjson.Object {
	o := pyjson.NewObject()
	if e.src != nil {
		// src passed encoding/json or pyjson when read, and pyjson
		// accepts both grammars, so this cannot fail.
		if v, err := pyjson.DecodeObject(e.src); err == nil {
			o = v
		}
	} else if e.extra != nil {
		o = e.extra.Clone()
	}
	// p is the entry as read; nil (an entry made here) writes every key.
	var p *Entry
	if read, ok := e.asRead(); ok {
		p = &read
	}
	if p == nil || e.ApprovedAt != p.ApprovedAt {
		o.Set(keyApprovedAt, e.ApprovedAt)
	}
	if p == nil || e.ApprovedVia != p.ApprovedVia {
		if e.ApprovedVia == "" {
			o.Delete(keyApprovedVia)
		} else {
			o.Set(keyApprovedVia, e.ApprovedVia)
		}
	}
	if p == nil || e.Command != p.Command {
		o.Set(keyCommand, e.Command)
	}
	if p == nil || e.Event != p.Event {
		o.Set(keyEvent, e.Event)
	}
	if p == nil || !sameString(e.ScriptMtime, p.ScriptMtime) {
		o.Set(keyMtime, stringOrNull(e.ScriptMtime))
	}
	if p == nil || !sameCode(e.Code, p.Code) {
		if e.Code == nil {
			o.Delete(keyCode)
		} else {
			o.Set(keyCode, codeValue(e.Code))
		}
	}
	if p == nil || e.Unpinnable != p.Unpinnable {
		if e.Unpinnable == "" {
			o.Delete(keyPinnable)
			o.Delete(keyUnpinnable)
		} else {
			o.Set(keyPinnable, false)
			o.Set(keyUnpinnable, e.Unpinnable)
		}
	}
	if p == nil || e.ScriptSHA256 != p.ScriptSHA256 {
		var sha any // null when unknown, so our entries always have the key
		if e.ScriptSHA256 != "" {
			sha = e.ScriptSHA256
		}
		o.Set(keySHA256, sha)
	}
	return o
}

func sameString(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func stringOrNull(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func sameCode(a, b []code.File) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// codeValue is the code as JSON: {"path", "sha256"} for a pinned file,
// {"path", "system": true} for a system file.
func codeValue(files []code.File) []any {
	out := make([]any, 0, len(files))
	for _, f := range files {
		o := pyjson.NewObject()
		o.Set("path", f.Path)
		if f.System {
			o.Set("system", true)
		} else if f.SHA256 != "" {
			o.Set("sha256", f.SHA256)
		} else {
			o.Set("sha256", nil)
		}
		out = append(out, o)
	}
	return out
}

// readCode reads a code list; a malformed one reads as no code (the entry
// is then judged on its §4 script, as before §23). It reads what
// json.Unmarshal into []code.File reads (keys matched without regard to
// case, the last of a repeated key kept, a null leaving a field unset),
// without its reflection, which the guard paid on every run (SPEC §24 item
// 10); TestReadCodeAsUnmarshal holds the two equal.
func readCode(raw json.RawMessage, valid bool) []code.File {
	if jsonKind(raw) != "a list" || (!valid && !json.Valid(raw)) {
		return nil
	}
	if !valid && !utf8.Valid(raw) {
		return unmarshalCode(raw) // strings then read with U+FFFD, as there
	}
	files, ok := []code.File{}, true
	eachElement(raw, func(v []byte) {
		var f code.File
		switch jsonKind(v) {
		case "null":
		case "an object":
			eachMember(v, func(key, value []byte) {
				k, kind := keyBytes(key), jsonKind(value)
				switch {
				case kind == "null":
				case bytes.EqualFold(k, []byte("path")) && kind == "a string":
					f.Path = unquote(value)
				case bytes.EqualFold(k, []byte("sha256")) && kind == "a string":
					f.SHA256 = unquote(value)
				case bytes.EqualFold(k, []byte("system")) && kind == "a boolean":
					f.System = value[0] == 't'
				case bytes.EqualFold(k, []byte("path")), bytes.EqualFold(k, []byte("sha256")), bytes.EqualFold(k, []byte("system")):
					ok = false // a value of the wrong type
				}
			})
		default:
			ok = false
		}
		files = append(files, f)
	})
	if !ok {
		return nil
	}
	for _, f := range files {
		if f.Path == "" {
			return nil
		}
	}
	return files
}

// unmarshalCode is readCode by json.Unmarshal.
func unmarshalCode(raw json.RawMessage) []code.File {
	var files []code.File
	if err := json.Unmarshal(raw, &files); err != nil || files == nil {
		return nil
	}
	for _, f := range files {
		if f.Path == "" {
			return nil
		}
	}
	return files
}

// unknownKeys returns the entry's keys that this package does not know.
func (e Entry) unknownKeys() *pyjson.Object {
	o := e.object()
	for _, k := range knownKeys {
		o.Delete(k)
	}
	return o
}

// entryFrom reads a well-formed item: an object whose event and command are
// strings. Known keys of another type stay in src, untouched. Keys are
// compared exactly (encoding/json would match struct fields ignoring case).
//
// Strings are substrings of txt where they have no escapes: reading 10,000
// entries then allocates a few large blocks rather than four small
// strings per entry.
func entryFrom(item json.RawMessage, txt *text) (Entry, bool) {
	if jsonKind(item) != "an object" {
		return Entry{}, false
	}
	var event, command, mtime json.RawMessage
	var e Entry
	eachMember(item, func(key, value []byte) {
		switch string(keyBytes(key)) {
		case keyEvent:
			event = value
		case keyCommand:
			command = value
		case keyApprovedAt:
			e.ApprovedAt, _ = txt.str(value)
		case keyApprovedVia:
			e.ApprovedVia, _ = txt.str(value)
		case keySHA256:
			e.ScriptSHA256, _ = txt.str(value)
		case keyMtime:
			mtime = value
		case keyCode:
			e.Code = readCode(value, txt.valid)
		case keyPinnable:
			if string(bytes.TrimSpace(value)) == "false" && e.Unpinnable == "" {
				e.Unpinnable = "not pinnable"
			}
		case keyUnpinnable:
			if r, ok := txt.str(value); ok && r != "" {
				e.Unpinnable = r
			}
		}
	})
	var ok bool
	if e.Event, ok = txt.str(event); !ok {
		return Entry{}, false
	}
	if e.Command, ok = txt.str(command); !ok {
		return Entry{}, false
	}
	switch jsonKind(mtime) {
	case "a string":
		s, _ := jsonString(mtime)
		e.ScriptMtime = &s
	case "a number":
		s := string(mtime)
		e.ScriptMtime = &s
	}
	e.src = item
	return e, true
}

// jsonKind names the JSON type of a raw value by its first byte, in the
// words of pyjson.TypeName.
func jsonKind(raw json.RawMessage) string {
	i := skipSpace(raw, 0)
	if i == len(raw) {
		return ""
	}
	switch raw[i] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// text is the file's bytes and the same bytes as a string: a string
// literal without escapes is a substring of it, not a copy of its own.
type text struct {
	data []byte
	s    string
	// valid: data passed json.Valid and utf8.Valid as a whole (a file
	// decode read), so its parts need not be checked again.
	valid bool
}

// newText shares data's memory with the string instead of copying a file
// of megabytes: data is the buffer decode was handed, which nothing writes
// to after reading (Store.read keeps it only to set a corrupt file aside).
func newText(data []byte) *text {
	if len(data) == 0 {
		return &text{}
	}
	return &text{data: data, s: unsafe.String(&data[0], len(data))}
}

// str is jsonString for raw, a slice of t.data.
func (t *text) str(raw json.RawMessage) (string, bool) {
	if jsonKind(raw) != "a string" {
		return "", false
	}
	lit := bytes.TrimSpace(raw)
	// lit is t.data[off:off+len(lit)] (slices share capacity's end).
	off := cap(t.data) - cap(lit)
	if len(lit) >= 2 && bytes.IndexByte(lit, '\\') < 0 && off >= 0 && off+len(lit) <= len(t.data) && &t.data[off] == &lit[0] {
		return t.s[off+1 : off+len(lit)-1], true
	}
	return unquote(lit), true
}

func jsonString(raw json.RawMessage) (string, bool) {
	if jsonKind(raw) != "a string" {
		return "", false
	}
	return unquote(bytes.TrimSpace(raw)), true
}
