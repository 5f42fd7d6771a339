package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/textsafe"
)

// writeJSON prints v as indented JSON with non-ASCII and <>& unescaped.
func writeJSON(w io.Writer, v any) error { return writeJSONSized(w, v, 0) }

// writeJSONSized is writeJSON encoding into a buffer of about sizeHint
// bytes from the start: `list --json` of 755,000 hooks doubled its way to
// 250 MB, clearing each new buffer (2 s; SPEC §29 item 2).
func writeJSONSized(w io.Writer, v any, sizeHint int) error {
	var buf bytes.Buffer
	buf.Grow(sizeHint)
	out, err := appendJSON(nil, &buf, v, 0)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// appendJSON appends v to dst as writeJSON writes it, at depth (its lines
// indented as inside depth levels of a document), with no line feed after
// it; buf is scratch space.
func appendJSON(dst []byte, buf *bytes.Buffer, v any, depth int) ([]byte, error) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, err
	}
	compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if dst == nil {
		dst = make([]byte, 0, buf.Len()+buf.Len()/2)
	}
	// Indented here rather than by SetIndent: encoding/json re-scans its
	// output with its validating state machine to indent it, which was
	// most of the time `list --json` spent writing 1,000 hooks.
	start := len(dst)
	dst = indentJSON(dst, compact, depth)
	if depth == 0 {
		dst = append(dst, '\n') // Encode's
	}
	// Values from hooks may hold NaN or Infinity, which the agent's JSON
	// accepts and writes bare; encoding/json carried them as placeholders
	// (longer than the words: a text restored is shorter).
	if restored := pyjson.RestoreNonFinite(dst[start:]); len(restored) != len(dst)-start {
		dst = append(dst[:start], restored...)
	}
	return dst, nil
}

// indentJSON appends to dst the compact JSON src (encoding/json's output:
// no space outside strings) indented as json.Indent(dst, src, "", "  ")
// does inside depth levels of a document, empty objects and lists staying
// "{}" and "[]".
func indentJSON(dst, src []byte, depth int) []byte {
	newline := func() {
		dst = append(dst, '\n')
		for i := 0; i < depth; i++ {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			end := i + 1
			for end < len(src) {
				j := bytes.IndexByte(src[end:], '"')
				if j < 0 {
					end = len(src)
					break
				}
				end += j
				n := 0
				for k := end - 1; k > i && src[k] == '\\'; k-- {
					n++
				}
				end++
				if n%2 == 0 {
					break
				}
			}
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, c, src[i+1])
				i++
				continue
			}
			dst = append(dst, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// printWarnings writes config diagnostics and other warnings to stderr.
func printWarnings(ios *iostreams.IOStreams, diags []config.Diagnostic, warnings []string) {
	cs := ios.ErrColors()
	for _, d := range diags {
		icon := cs.WarningIcon()
		if d.Level == config.LevelInfo {
			icon = cs.InfoIcon()
		}
		fmt.Fprintf(ios.ErrOut, "%s %s\n", icon, esc(d.String()))
	}
	for _, w := range warnings {
		fmt.Fprintf(ios.ErrOut, "%s %s\n", cs.WarningIcon(), escText(w))
	}
}

// printErrors writes failures that did not stop the command (a write
// that failed beside a firing's outcome) to stderr.
func printErrors(ios *iostreams.IOStreams, errs []string) {
	cs := ios.ErrColors()
	for _, e := range errs {
		fmt.Fprintf(ios.ErrOut, "%s error: %s\n", cs.FailureIcon(), escText(e))
	}
}

// esc makes one line of text that came from a file, a payload or a hook
// safe for a terminal, and escText a block of lines (SPEC §13 rule 9):
// every string of human output that the user did not type goes through one
// of them; --json output does not.
func esc(s string) string { return textsafe.Line(s) }

// escCmd escapes a command for display: as esc, with a backslash shown as
// \\ (SPEC §24 item 6).
func escCmd(s string) string { return textsafe.Command(s) }

// pasteQuote quotes a command offered for pasting (SPEC §24 item 6):
// shell-quoted, $'…' where esc would escape, never escaped for display.
func pasteQuote(s string) string { return textsafe.ShellQuote(s) }

func escText(s string) string { return textsafe.Text(s) }

// cut shortens s to n characters (runes) with an ellipsis note.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + fmt.Sprintf("… (%d more characters)", len(r)-n)
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// commandJSON is how every --json output names a shell hook's command
// (SPEC §13 rule 11): as written in the config; command_expanded when
// ${VAR} expansion changed it, unless a secret went into it, which
// command_has_secret says instead.
type commandJSON struct {
	Command          string  `json:"command"`
	CommandExpanded  *string `json:"command_expanded,omitempty"`
	CommandHasSecret bool    `json:"command_has_secret,omitempty"`
	// A protected hook (SPEC §17) is shown by the command it guards;
	// wrapped is the command the config holds.
	Protected bool    `json:"protected,omitempty"`
	Wrapped   *string `json:"wrapped,omitempty"`
}

func commandOf(s hookspec.Spec) commandJSON {
	if s.Protected() {
		c := commandJSON{Command: s.InnerShown(), CommandHasSecret: s.HasSecret(), Protected: true, Wrapped: pyjson.NullIfEmpty(s.Shown())}
		if s.InnerWritten != "" && !s.HasSecret() {
			c.CommandExpanded = &s.Inner
		}
		return c
	}
	return commandJSON{Command: s.Shown(), CommandExpanded: pyjson.NullIfEmpty(s.Expanded()), CommandHasSecret: s.HasSecret()}
}

// whereJSON is what every --json object carries (SPEC §1): the HERMES_HOME
// and the config file used (null when none was found).
type whereJSON struct {
	HermesHome string  `json:"hermes_home"`
	ConfigPath *string `json:"config_path"`
}

func where(loc *config.Location) whereJSON {
	return whereJSON{HermesHome: loc.Home, ConfigPath: pyjson.NullIfEmpty(loc.ConfigPath)}
}

// printOutcome is the last line of test and run-event: the aggregated
// outcome.
func printOutcome(w io.Writer, o *hooks.Outcome) {
	if o != nil {
		fmt.Fprintf(w, "\nOutcome: %s\n", esc(fmt.Sprint(o.Object())))
	} else {
		fmt.Fprintln(w, "\nOutcome: none (observer event)")
	}
}

// protectedMark follows a protected hook's command in human output.
func protectedMark(s hookspec.Spec) string {
	if s.Protected() {
		return "  [protected]"
	}
	return ""
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
