package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/regfile"
	"github.com/hermes-hooks/hermes/internal/secretname"
)

// Settings are the config keys this tool reads besides the hooks block.
type Settings struct {
	AutoAccept  bool     // hooks_auto_accept
	PinScripts  bool     // hooks_pin_scripts, default true
	AuditLog    bool     // hooks_audit_log, default true
	StrictModes bool     // hooks_strict_modes, default true (SPEC §13.5)
	ExtraEvents []string // hooks_extra_events, trimmed, without gateway names
}

// DefaultSettings are the settings of a config that says nothing.
func DefaultSettings() Settings { return Settings{PinScripts: true, AuditLog: true, StrictModes: true} }

// File is a loaded config file.
type File struct {
	Path     string
	Settings Settings
	// Hooks is the value of the top-level `hooks` key (aliases followed),
	// nil when the key is absent. Environment references in its strings are
	// already expanded.
	Hooks        *yaml.Node
	HooksKeyLine int
	// Disabled is the value of the top-level `hooks_disabled` key (SPEC
	// §27): hooks switched off with `hermes hooks disable`, in the shape of
	// hooks:. The agent ignores the key; nil when absent.
	Disabled        *yaml.Node
	DisabledKeyLine int
	// TopKeys are the keys of the top-level mapping with their lines, in
	// file order: an event name among them is a hook outdented out of
	// hooks: (SPEC §20), which the hooks parser, knowing the events, names.
	TopKeys     []KeyLine
	Diagnostics []Diagnostic
	// Expansions records, for each string value that held ${VAR}, what was
	// written before expansion: reports show a command as written, so a
	// secret passed in through the environment is not printed (SPEC §13
	// rule 11).
	Expansions map[*yaml.Node]Expansion

	// env is what Item expands a stub's item with; nil when the file
	// cannot hold ${VAR}.
	env Env
}

// Item is an item of one of the file's lists as read, ${VAR} expanded as
// in the rest of the file, and the expansions made in it (see
// Expansions): n itself and Expansions, unless n is a stub (IsStub),
// whose item is read and expanded afresh, by r when it is not nil (the
// item is then void once r reads another).
func (f *File) Item(r *ItemReader, n *yaml.Node) (*yaml.Node, map[*yaml.Node]Expansion) {
	if !IsStub(n) {
		return n, f.Expansions
	}
	var item *yaml.Node
	if r != nil {
		item = r.Read(n)
	} else {
		item = Deref(n)
	}
	if f.env == nil || !textMayHoldReference(n.Value) {
		return item, nil
	}
	x := map[*yaml.Node]Expansion{}
	return expandCopy(item, f.env, x), x
}

// KeyLine is a mapping key and the line it is on.
type KeyLine struct {
	Key  string
	Line int
}

// Expansion is a string value as written in the file and the variables
// expanded into it.
type Expansion struct {
	Written string
	Vars    []string
}

// SecretVars are the variables expanded into the value whose name says
// they hold a secret.
func (x Expansion) SecretVars() []string {
	var out []string
	for _, v := range x.Vars {
		if IsSecretName(v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// IsSecretName reports whether a variable name suggests a secret: it
// contains TOKEN, SECRET, KEY, PASSWORD or PASS (any case).
func IsSecretName(name string) bool { return secretname.Var(name) }

// SyntaxError is a config file that is not valid YAML.
type SyntaxError struct {
	Path string
	Line int // 0 when the parser did not say
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: invalid YAML: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: invalid YAML: %s", e.Path, e.Msg)
}

// Truthy reports whether s is one of 1, true, yes, on (trimmed, any case):
// the agent's rule for switches given as strings or environment variables.
func Truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// Load reads and parses the config file at path. path "" (no config file)
// gives an empty File. An unreadable file, invalid YAML (*SyntaxError) and a
// file the agent refuses (*RefusedError) are errors; anything else odd is a
// diagnostic.
func Load(path string, env Env) (*File, error) {
	f := &File{Path: path, Settings: DefaultSettings()}
	if path == "" {
		return f, nil
	}
	data, err := regfile.ReadFile(path)
	var nr *regfile.NotRegularError
	if errors.As(err, &nr) { // replaced since Locate looked
		return nil, &FileError{What: "config file", Path: path, Err: errors.New("it is " + nr.Kind + ", not a regular file")}
	}
	if err != nil {
		return nil, fmt.Errorf("reading config file: %w", err)
	}
	doc, more, decoding, err := parseYAML(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			se.Path = path
		}
		return nil, err
	}
	if more > 0 {
		return nil, &RefusedError{Path: path, Line: more, Reason: "more than one YAML document (another starts here)"}
	}
	if r := Refusal(doc); r != nil {
		r.Path = path
		return nil, r
	}
	if env == nil {
		env = MapEnv(nil)
	}
	root := Deref(doc)
	f.Expansions = map[*yaml.Node]Expansion{}
	switch {
	case (decoding == nil || !decoding.Fast) && hasAlias(doc):
		// An alias sees its anchor's expansion: expanded in place, and the
		// tree, changed, is not offered to an edit.
		expandEnv(root, env, map[*yaml.Node]bool{}, f.Expansions)
	case mayHoldReference(data):
		// Expanded into copies: the tree decoded stays as written, and an
		// edit of the same bytes in this process reads it rather than
		// parsing the file again (SPEC §29 item 2). A stub's item is
		// expanded when it is read (Item).
		root = expandCopy(root, env, f.Expansions)
		f.env = env
		OfferDecoding(decoding)
	default:
		// Nothing to expand, so no walk of the tree for it (a third of a
		// second at 55 MB).
		OfferDecoding(decoding)
	}
	switch v := Resolve(root); v.Kind {
	case KindNull:
		return f, nil
	case KindMapping:
	default:
		f.warn("", root.Line, fmt.Sprintf("the top level must be a mapping of keys to values, got %s; the file is ignored", v.Describe()))
		return f, nil
	}
	pairs, _ := Pairs(root)
	for _, p := range pairs {
		f.TopKeys = append(f.TopKeys, KeyLine{Key: p.Key, Line: p.KeyNode.Line})
		switch p.Key {
		case "hooks":
			f.Hooks, f.HooksKeyLine = Deref(p.Value), p.KeyNode.Line
		case HooksDisabledKey:
			f.Disabled, f.DisabledKeyLine = Deref(p.Value), p.KeyNode.Line
		case "hooks_auto_accept":
			v := Resolve(p.Value)
			f.Settings.AutoAccept = (v.Kind == KindBool && v.Bool) || (v.Kind == KindString && Truthy(v.Str))
		case "hooks_pin_scripts":
			f.boolSetting(p, &f.Settings.PinScripts)
		case "hooks_audit_log":
			f.boolSetting(p, &f.Settings.AuditLog)
		case "hooks_strict_modes":
			f.boolSetting(p, &f.Settings.StrictModes)
		case "hooks_extra_events":
			f.extraEvents(p)
		}
	}
	return f, nil
}

func (f *File) warn(path string, line int, msg string) {
	f.Diagnostics = append(f.Diagnostics, Diagnostic{Level: "warning", Path: path, File: f.Path, Line: line, Message: msg})
}

func (f *File) boolSetting(p Pair, dst *bool) {
	switch v := Resolve(p.Value); v.Kind {
	case KindBool:
		*dst = v.Bool
	case KindNull:
		// `key:` with nothing: the default stands, as in the agent.
	default:
		f.warn(p.Key, p.KeyNode.Line, fmt.Sprintf("must be true or false, got %s; using the default %t", v.Describe(), *dst))
	}
}

func (f *File) extraEvents(p Pair) {
	v := Resolve(p.Value)
	if v.Kind == KindNull {
		return
	}
	if v.Kind != KindList {
		f.warn(p.Key, p.KeyNode.Line, fmt.Sprintf("must be a list of event names, got %s; ignored", v.Describe()))
		return
	}
	for i, item := range v.Node.Content {
		path := fmt.Sprintf("%s[%d]", p.Key, i)
		iv := Resolve(item)
		name := strings.TrimSpace(iv.Str)
		switch {
		case iv.Kind != KindString:
			f.warn(path, item.Line, fmt.Sprintf("an event name must be a string, got %s; skipped", iv.Describe()))
		case name == "":
			f.warn(path, item.Line, "blank event name; skipped")
		case strings.Contains(name, ":"):
			f.warn(path, item.Line, fmt.Sprintf("%q is a gateway event name (it contains ':'); extra events are shell events; skipped", name))
		case name == HooksOutboundKey || name == HooksOutputSpillKey:
			f.warn(path, item.Line, fmt.Sprintf("%q is a reserved key of the hooks: block, not an event (hooks.%s is not a list of hooks); skipped", name, name))
		case !eventName().MatchString(name):
			f.warn(path, item.Line, fmt.Sprintf("%q is not an event name: use letters, digits and _ (not starting with a digit), like the agent's events; skipped", name))
		default:
			f.Settings.ExtraEvents = append(f.Settings.ExtraEvents, name)
		}
	}
}

// HooksDisabledKey is the top-level key of disabled hooks (SPEC §27).
const HooksDisabledKey = "hooks_disabled"

// Keys of the hooks: block that are not events (SPEC §2.1).
const (
	HooksOutboundKey    = "outbound"
	HooksOutputSpillKey = "output_spill"
)

// eventName is what a shell event name looks like: an identifier, as
// every event of the agent is.
var eventName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parseYAML parses the first document; more is the line where a second
// one starts (0 when there is none).
func parseYAML(data []byte) (doc *yaml.Node, more int, p *Decoding, err error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	p = Decode(data)
	if p.Panicked != nil {
		// yaml.v3 reports some malformed input by panicking with a value it
		// does not recover itself; a config file must never crash hermes.
		return nil, 0, nil, &SyntaxError{Msg: fmt.Sprint(p.Panicked)}
	}
	if err := p.Err; err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, nil, nil
		}
		return nil, 0, nil, syntaxError(err, data)
	}
	switch err := p.SecondErr; {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, 0, nil, syntaxError(err, data)
	default:
		more = secondDocumentLine(data, &p.Doc, &p.Second)
	}
	return &p.Doc, more, p, nil
}

// syntaxError turns a yaml.v3 error into a SyntaxError with a 1-based
// line. yaml.v3 prints scanner errors with 1-based lines but parser errors
// with the 0-based line of the enclosing block (and no line at all when
// that is 0), so parser errors are shifted to point at the block's first
// line. Reader errors (bad encoding) carry no line.
func syntaxError(err error, data []byte) *SyntaxError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 0
	if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	switch {
	case strings.HasPrefix(msg, "unknown anchor '"):
		// yaml.v3 gives no line here; the first use of the alias is it.
		name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
		line = 0
		for i, l := range strings.Split(string(data), "\n") {
			if strings.Contains(l, "*"+name) {
				line = i + 1
				break
			}
		}
	case isReaderError(msg):
		line = 0
	case isParserError(msg):
		line++
	case line == 0:
		line = 1
	}
	// An error found at the end of the input is on the last line, not
	// after it.
	if last := bytes.Count(data, []byte("\n")) + 1; line > 0 && bytes.HasSuffix(data, []byte("\n")) && line >= last {
		line = last - 1
	}
	return &SyntaxError{Line: line, Msg: msg}
}

func isParserError(msg string) bool {
	for _, p := range []string{"did not find expected ',' or", "did not find expected '-' indicator",
		"did not find expected <", "did not find expected key", "did not find expected node content",
		"found duplicate %", "found incompatible YAML document", "found undefined tag handle"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

func isReaderError(msg string) bool {
	for _, p := range []string{"input error", "incomplete UTF-", "invalid Unicode character", "invalid leading UTF-8",
		"invalid length of a UTF-8", "invalid trailing UTF-8", "unexpected low surrogate", "control characters are not allowed"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

var envRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}`) })

// expandEnv replaces ${VAR} and ${env:VAR} in string values, in place, so
// that line numbers survive. A value that was a string stays one even when
// the result looks like a number: the agent expands after parsing.
func expandEnv(n *yaml.Node, env Env, seen map[*yaml.Node]bool, written map[*yaml.Node]Expansion) {
	if n == nil || seen[n] {
		return
	}
	seen[n] = true
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			expandEnv(c, env, seen, written)
		}
	case yaml.MappingNode:
		for i := 1; i < len(n.Content); i += 2 {
			expandEnv(n.Content[i], env, seen, written)
		}
	case yaml.ScalarNode:
		if !strings.Contains(n.Value, "${") || Resolve(n).Kind != KindString {
			return
		}
		expandScalar(n, env, written)
	}
}

// expandScalar expands the references of the string scalar n, in place.
func expandScalar(n *yaml.Node, env Env, written map[*yaml.Node]Expansion) {
	x := Expansion{Written: n.Value}
	n.Value = envRef().ReplaceAllStringFunc(n.Value, func(ref string) string {
		name := envRef().FindStringSubmatch(ref)[1]
		x.Vars = append(x.Vars, name)
		v, _ := env(name)
		return v
	})
	if len(x.Vars) > 0 {
		written[n] = x
	}
	n.Tag, n.Style = "!!str", n.Style|yaml.TaggedStyle
}

// mayHoldReference reports whether a string value read from data can
// hold "${": data holds it, or a backslash, which could write it as an
// escape ("\x24{") or join it across a line break.
func mayHoldReference(data []byte) bool {
	return bytes.Contains(data, []byte("${")) || bytes.IndexByte(data, '\\') >= 0
}

// textMayHoldReference is mayHoldReference of a text.
func textMayHoldReference(text string) bool {
	return strings.Contains(text, "${") || strings.IndexByte(text, '\\') >= 0
}

// hasAlias reports whether an alias is anywhere in n (keys included).
func hasAlias(n *yaml.Node) bool {
	if n == nil {
		return false
	}
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// expandCopy is expandEnv for a tree without aliases, leaving n as it is:
// a node that changes, and every node above it, is a copy (lines, columns
// and styles kept); a node that does not is shared with n.
func expandCopy(n *yaml.Node, env Env, written map[*yaml.Node]Expansion) *yaml.Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode, yaml.MappingNode:
		first := 0
		if n.Kind == yaml.MappingNode {
			first = 1 // values, not keys
		}
		step := 1 + first
		var content []*yaml.Node
		for i := first; i < len(n.Content); i += step {
			c := expandCopy(n.Content[i], env, written)
			if c == n.Content[i] {
				continue
			}
			if content == nil {
				content = slices.Clone(n.Content)
			}
			content[i] = c
		}
		if content == nil {
			return n
		}
		cp := *n
		cp.Content = content
		return &cp
	case yaml.ScalarNode:
		if !strings.Contains(n.Value, "${") || Resolve(n).Kind != KindString {
			return n
		}
		cp := *n
		expandScalar(&cp, env, written)
		return &cp
	}
	return n
}

// YAMLError gives the 1-based line (0 when unknown) and the message of an
// error yaml.v3 returned for data, corrected as for config files, so other
// YAML files (HOOK.yaml) report the same lines.
func YAMLError(err error, data []byte) (line int, msg string) {
	se := syntaxError(err, data)
	return se.Line, se.Msg
}

// secondDocumentLine finds the `---` that starts the second document: the
// first marker line after the first document's content (yaml.v3 gives a
// document node the line of its content, which an empty one lacks).
func secondDocumentLine(data []byte, first, second *yaml.Node) int {
	after := maxLine(first)
	for i, l := range strings.Split(string(data), "\n") {
		if i+1 > after && (l == "---" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "---\t")) {
			return i + 1
		}
	}
	if second.Line > 0 {
		return second.Line
	}
	return 1
}

// maxLine is the last line any node of n sits on.
func maxLine(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	m := n.Line
	for _, c := range n.Content {
		if l := maxLine(c); l > m {
			m = l
		}
	}
	return m
}
