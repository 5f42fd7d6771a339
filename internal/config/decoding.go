package config

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"gopkg.in/yaml.v3"
)

// Decoding is yaml.v3's reading of some bytes: the first document and
// whether another follows. A Decoding's trees are never changed once
// decoded: Load expands ${VAR} into copies of the nodes it changes (when
// the document has no aliases), so the tree it reads and the tree an edit
// of the same bytes reads can be one (SPEC §29 item 2: each parse of a
// 55 MB config costs seconds and gigabytes).
type Decoding struct {
	// Body is the bytes yaml.v3 read; Text, the fast reader's copy of
	// them, whose strings the tree holds: the bytes it read need not be
	// kept too (a 55 MB config's; SPEC §29 item 2).
	Body        []byte
	Text        string
	Doc, Second yaml.Node
	Err         error // of the first document; io.EOF when there is none
	SecondErr   error // of the second; io.EOF when there is none (not read when Err is not nil)
	Panicked    any   // yaml.v3 panicked on the input (it does on some malformed input)
	// FirstRead: the first document was read (Err is nil or io.EOF).
	FirstRead bool
	// Fast: read by fastDecode, which takes no anchor, alias or tag, and
	// leaves stubs (IsStub).
	Fast bool
	// Values is the number of values (scalars that are not keys, and
	// aliases) in Doc, stubs' items included; for Fast only.
	Values int
}

// Decode decodes body's first document and tries a second. A config in
// the plain block style is read by fastDecode, the same tree yaml.v3
// would build (the items of outermost lists left stubs), several times
// faster; any other by yaml.v3.
func Decode(body []byte) (p *Decoding) {
	if p, doc, ok := fastDecodeWith(body, nil); ok {
		return &Decoding{Text: p.text, Doc: *doc, FirstRead: true, SecondErr: io.EOF, Fast: true, Values: p.values}
	}
	return decodeYAMLv3(body)
}

// decodeYAMLv3 is Decode by yaml.v3 alone.
func decodeYAMLv3(body []byte) (p *Decoding) {
	p = &Decoding{Body: body}
	defer func() {
		if r := recover(); r != nil {
			p.Panicked = r
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(body))
	p.Err = dec.Decode(&p.Doc)
	p.FirstRead = p.Err == nil || errors.Is(p.Err, io.EOF)
	if p.Err == nil {
		p.SecondErr = dec.Decode(&p.Second)
	}
	return p
}

// offered is the one Decoding handed on to the next reader of the same
// bytes in this process.
var offered struct {
	sync.Mutex
	p *Decoding
}

// OfferDecoding hands p to the next TakeDecoding of the same bytes (nil
// forgets the one offered). Only a Decoding nobody will change may be
// offered.
func OfferDecoding(p *Decoding) {
	offered.Lock()
	offered.p = p
	offered.Unlock()
}

// TakeDecoding is the Decoding offered for exactly body, nil when there is
// none. It is taken: a second TakeDecoding of the same bytes gets nil.
func TakeDecoding(body []byte) *Decoding {
	offered.Lock()
	defer offered.Unlock()
	p := offered.p
	if p == nil || (p.Fast && p.Text != string(body)) || (!p.Fast && !bytes.Equal(p.Body, body)) {
		return nil
	}
	offered.p = nil
	return p
}
