package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes/internal/config"
)

// Field is one key of a mapping to add. Value is a string, an int or a
// bool.
type Field struct {
	Key   string
	Value any
}

// quoting is how new string values are written, following the file.
type quoting int

const (
	quotePlain  quoting = iota // plain when that reads back the same, else double-quoted
	quoteDouble                // always double-quoted
	quoteSingle                // single-quoted when possible, else double-quoted
)

func quotingOf(n *yaml.Node) quoting {
	switch {
	case n == nil:
		return quotePlain
	case n.Style&yaml.DoubleQuotedStyle != 0:
		return quoteDouble
	case n.Style&yaml.SingleQuotedStyle != 0:
		return quoteSingle
	}
	return quotePlain
}

func renderValue(v any, q quoting, flow bool) (string, error) {
	switch v := v.(type) {
	case string:
		return renderString(v, q, flow), nil
	case int:
		return strconv.Itoa(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	}
	return "", fmt.Errorf("edit: unsupported value %T", v)
}

func renderString(s string, q quoting, flow bool) string {
	switch {
	case q == quotePlain && plainOK(s, flow):
		return s
	case (q == quoteSingle || (q == quotePlain && !strings.Contains(s, "'"))) && printable(s):
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(buf.String(), "\n")
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return false
		}
	}
	return true
}

// plainOK: s can be written unquoted (in a flow collection when flow) and
// reads back as the same string.
func plainOK(s string, flow bool) bool {
	if flow && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	if s == "" || s != strings.TrimSpace(s) || !printable(s) || strings.ContainsAny(s, "\t") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	// The agent reads YAML 1.1: yes, on, y, 1:20, 2001-12-14, = and << are
	// not strings to it, though they are to yaml.v3.
	if !config.PlainIsString(s) {
		return false
	}
	if plainPath(s) {
		return true
	}
	var v any
	if err := yaml.Unmarshal([]byte("k: "+s), &v); err != nil {
		return false
	}
	m, ok := v.(map[string]any)
	return ok && m["k"] == s
}

// plainPath: s is an absolute path and words of letters, digits and
// /._-~+= (a command such as protect writes 100,000 times, SPEC §29 item
// 2), which passed plainOK's checks above. Such a scalar reads back as
// itself without asking yaml.v3: no YAML 1.2 tag but !!str resolves a
// plain scalar starting with "/" (null, bool, int, float and the merge key
// start otherwise), and with no indicator, ": ", " #", tab or line break
// in it, it is one plain scalar (TestPlainPathAsYAMLReadsIt).
func plainPath(s string) bool {
	if s[0] != '/' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/._-~+= ", c) >= 0) {
			return false
		}
	}
	return true
}

func renderKey(k string) string { return renderString(k, quotePlain, true) }

// blockItem renders a sequence item as block lines: the dash at indent,
// the mapping's keys at indent+off.
func blockItem(fields []Field, indent, off int, q quoting) ([]string, error) {
	var lines []string
	for i, f := range fields {
		v, err := renderValue(f.Value, q, false)
		if err != nil {
			return nil, err
		}
		prefix := strings.Repeat(" ", indent+off)
		if i == 0 {
			prefix = strings.Repeat(" ", indent) + "-" + strings.Repeat(" ", off-1)
		}
		lines = append(lines, prefix+renderKey(f.Key)+": "+v)
	}
	return lines, nil
}

// flowItem renders a sequence item as a flow mapping.
func flowItem(fields []Field, q quoting) (string, error) {
	parts := make([]string, len(fields))
	for i, f := range fields {
		v, err := renderValue(f.Value, q, true)
		if err != nil {
			return "", err
		}
		parts[i] = renderKey(f.Key) + ": " + v
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}
