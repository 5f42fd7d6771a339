package casefile

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// Case is one case to write.
type Case struct {
	Name  string
	Event string
	// Payload is a JSON object: the recorded wire payload, or a fields
	// payload for a canary.
	Payload []byte
	Expect  Expect
	Canary  bool
	// Time is when the recorded firing happened (zero for a canary).
	Time time.Time
}

// Expect is what a case expects; empty fields are not written.
type Expect struct {
	Action          string
	MessageContains string
	ContextContains string
}

// Write writes the cases as a YAML case file, each line of header first as
// a comment. Strings and payloads are written as JSON (YAML reads JSON),
// with the characters YAML refuses in a file escaped.
func Write(w io.Writer, header []string, cases []Case) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		bw.WriteString("# " + oneLine(h) + "\n")
	}
	if len(header) > 0 && len(cases) > 0 {
		bw.WriteString("\n")
	}
	if len(cases) == 0 {
		bw.WriteString("[]\n")
	}
	for _, c := range cases {
		bw.WriteString("- name: " + quote(c.Name) + "\n")
		bw.WriteString("  event: " + word(c.Event) + "\n")
		if c.Canary {
			bw.WriteString("  canary: true\n")
		}
		if len(c.Payload) > 0 {
			bw.WriteString("  payload: ")
			bw.Write(yamlSafe(c.Payload))
			bw.WriteString("\n")
		}
		var ex []string
		if c.Expect.Action != "" {
			ex = append(ex, "action: "+word(c.Expect.Action))
		}
		if c.Expect.MessageContains != "" {
			ex = append(ex, "message_contains: "+quote(c.Expect.MessageContains))
		}
		if c.Expect.ContextContains != "" {
			ex = append(ex, "context_contains: "+quote(c.Expect.ContextContains))
		}
		if len(ex) > 0 {
			bw.WriteString("  expect: {" + strings.Join(ex, ", ") + "}\n")
		}
	}
	return bw.Flush()
}

// word is an event or action name written plain when YAML reads it back
// as the same string, else quoted.
func word(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || r >= '0' && r <= '9') {
			return quote(s)
		}
	}
	switch s {
	case "", "y", "n", "yes", "no", "on", "off", "true", "false", "null":
		return quote(s)
	}
	return s
}

// quote is s as a double-quoted scalar YAML reads back as s.
func quote(s string) string {
	var b bytes.Buffer
	pyjson.WriteString(&b, s)
	return string(yamlSafe(b.Bytes()))
}

// yamlSafe escapes, in JSON text, the characters a YAML file may not hold
// raw (DEL, the C1 controls, U+FEFF, U+FFFE, U+FFFF and U+2028/9, which
// some readers take for line breaks): JSON escapes the C0 controls
// already, and outside its strings JSON text is plain ASCII, so each such
// character is inside a string, where \uXXXX means it in both languages.
func yamlSafe(b []byte) []byte {
	if !bytes.ContainsFunc(b, needsEscape) {
		return b
	}
	var out bytes.Buffer
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if needsEscape(r) {
			const hex = "0123456789abcdef"
			out.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				out.WriteByte(hex[(r>>shift)&0xF])
			}
		} else {
			out.Write(b[:n])
		}
		b = b[n:]
	}
	return out.Bytes()
}

func needsEscape(r rune) bool {
	return r == 0x7F || (r >= 0x80 && r <= 0x9F) || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF || r == 0x2028 || r == 0x2029
}

// oneLine keeps a header comment on one line.
func oneLine(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}
