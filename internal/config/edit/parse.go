package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// RefusedError is a file that is not edited because the agent would not
// read it (a duplicate key, several documents, an unknown tag), because it
// is not valid YAML, or because the place to edit has a shape that cannot
// be changed safely (a list where a mapping is needed, an alias). Nothing
// is written.
type RefusedError struct {
	Line   int // 0 when not tied to a line
	Reason string
}

func (e *RefusedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return e.Reason
}

func refused(line int, format string, args ...any) error {
	return &RefusedError{Line: line, Reason: fmt.Sprintf(format, args...)}
}

// UnsafeError means an edit was computed but did not pass the checks (it
// would have changed more than intended). Nothing is written; the change
// has to be made by hand.
type UnsafeError struct{ Reason string }

func (e *UnsafeError) Error() string {
	return "the edit could not be made safely (" + e.Reason + "); nothing was written: make the change by hand"
}

// Doc is a YAML file ready to be edited. A Doc is not changed by edits:
// each returns new bytes.
type Doc struct {
	src   []byte // as given, BOM included
	bom   int    // length of the BOM at the start of src (0 or 3)
	body  []byte // src without the BOM
	root  *yaml.Node
	nl    string // line end used by the file: "\n" or "\r\n"
	lines []int  // byte offset in body where each line starts
	// aliases: see aliasesByTarget (nil until asked).
	aliases map[*yaml.Node][]*yaml.Node
}

// Parse reads src. An empty src (or one holding only comments) is a valid
// empty document. A file the agent would refuse is a *RefusedError.
func Parse(src []byte) (d *Doc, err error) {
	d = &Doc{src: src, nl: "\n"}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		d.bom = 3
	}
	d.body = src[d.bom:]
	if i := bytes.IndexByte(d.body, '\n'); i > 0 && d.body[i-1] == '\r' {
		d.nl = "\r\n"
	}
	d.lines = []int{0}
	for i, c := range d.body {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	d.root, err = parseRoot(d.body)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Check reports whether src is a file the agent would read: valid YAML,
// one document, no duplicate keys, no unknown tags. It is the check Parse
// applies, for callers that only want to know.
func Check(src []byte) error {
	_, err := parseRoot(bytes.TrimPrefix(src, []byte("\ufeff")))
	return err
}

func parseRoot(body []byte) (root *yaml.Node, err error) {
	// The tree the stable read or the config's load parsed from the same
	// bytes, when one was offered.
	p := config.TakeDecoding(body)
	if p == nil {
		p = config.Decode(body)
	}
	if p.Panicked != nil {
		return nil, refused(0, "not valid YAML: %v", p.Panicked)
	}
	doc, second := &p.Doc, &p.Second
	if err := p.Err; err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, refused(0, "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	switch err := p.SecondErr; {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, refused(0, "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	default:
		return nil, refused(second.Line, "the file holds more than one YAML document; the agent ignores such a file, so it is not edited")
	}
	// The same rule config.Load applies: one reading of what the agent
	// refuses.
	if r := config.Refusal(doc); r != nil {
		return nil, refusedByAgent(r)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// refusedByAgent is the error for a file the agent would refuse.
func refusedByAgent(r *config.RefusedError) error {
	return refused(r.Line, "%s; the agent ignores such a file, so it is not edited", r.Reason)
}

// Bytes returns the document as given.
func (d *Doc) Bytes() []byte { return d.src }

// Lookup returns the node at a path of mapping keys, aliases followed; nil
// when a key is missing or a value on the way is not a mapping.
func (d *Doc) Lookup(path []string) *yaml.Node {
	n := config.Deref(d.root)
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		_, v := findKey(n, k)
		n = config.Deref(v)
	}
	return n
}

// findKey returns the key and value nodes of key in a mapping.
func findKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if kn := m.Content[i]; kn.Kind == yaml.ScalarNode && kn.Value == key && kn.ShortTag() == "!!str" {
			return kn, m.Content[i+1]
		}
	}
	return nil, nil
}

// Lines of the body: 1-based numbers, as yaml.v3 gives them.

func (d *Doc) numLines() int { return len(d.lines) }

func (d *Doc) lineStart(l int) int {
	if l > len(d.lines) {
		return len(d.body)
	}
	return d.lines[l-1]
}

// lineEnd is the offset of the end of line l's content, before its line
// break.
func (d *Doc) lineEnd(l int) int {
	end := len(d.body)
	if l < len(d.lines) {
		end = d.lines[l] - 1
		if end > 0 && d.body[end-1] == '\r' {
			end--
		}
	}
	return end
}

func (d *Doc) line(l int) string { return string(d.body[d.lineStart(l):d.lineEnd(l)]) }

// offset converts a yaml.v3 position (1-based line, 1-based column in
// characters) to a byte offset in body.
func (d *Doc) offset(line, col int) int {
	off := d.lineStart(line)
	end := d.lineEnd(line)
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(d.body[off:end])
		off += size
	}
	return off
}

func indentOf(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

func isComment(s string) bool { return strings.HasPrefix(strings.TrimLeft(s, " \t"), "#") }

// reused reports whether an alias elsewhere in the file refers to n or to
// a node inside it: editing n would change those places too. It costs the
// size of n (the aliases of the file are found once per Doc), so checking
// every item of a long list stays linear.
func (d *Doc) reused(n *yaml.Node) bool {
	aliases := d.aliasesByTarget()
	if len(aliases) == 0 {
		return false
	}
	inside := map[*yaml.Node]bool{}
	var mark func(*yaml.Node)
	mark = func(x *yaml.Node) {
		inside[x] = true
		for _, c := range x.Content {
			mark(c)
		}
	}
	mark(n)
	for x := range inside {
		for _, a := range aliases[x] {
			if !inside[a] {
				return true
			}
		}
	}
	return false
}

// aliasTo reports whether an alias refers to n itself.
func (d *Doc) aliasTo(n *yaml.Node) bool { return len(d.aliasesByTarget()[n]) > 0 }

// aliasesByTarget maps each node an alias refers to to those aliases,
// found in one walk of the document and kept (a Doc does not change).
func (d *Doc) aliasesByTarget() map[*yaml.Node][]*yaml.Node {
	if d.aliases != nil {
		return d.aliases
	}
	d.aliases = map[*yaml.Node][]*yaml.Node{}
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Kind == yaml.AliasNode {
			d.aliases[x.Alias] = append(d.aliases[x.Alias], x)
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	if d.root != nil {
		walk(d.root)
	}
	return d.aliases
}

// aliasToPath reports whether an alias refers to a mapping on path.
func (d *Doc) aliasToPath(path []string) bool {
	n := d.root
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return false
		}
		_, n = findKey(n, k)
		if n != nil && d.aliasTo(n) {
			return true
		}
	}
	return false
}
