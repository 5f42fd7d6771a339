package audit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// encode is the line of r, newline included: auditJSON as encoding/json
// writes it (HTML not escaped), written by hand. The guard writes one line
// per tool call, and encoding/json's first use of a type (its reflection
// over the struct and the answer's values) cost it about 0.2 ms of CPU per
// run (SPEC §24 item 10); TestEncodeAsEncodingJSON holds the two equal.
func encode(r Record) ([]byte, error) {
	parsed, cut := capAnswer(r.Answer)
	errText, hasErr := r.Result.Err, r.Result.Err != ""
	if e := capString(errText); len(e) < len(errText) {
		errText, cut = e, true
	}
	elapsed := r.Result.ElapsedSeconds()
	if r.Kind == "gateway" {
		errText, hasErr, elapsed = r.Error, r.Error != "", r.Elapsed
	}
	b := make([]byte, 0, 512)
	b = append(b, `{"time":`...)
	b = appendString(b, allowlist.FormatTime(r.Time))
	b = append(b, `,"event":`...)
	b = appendString(b, r.Event)
	b = append(b, `,"kind":`...)
	b = appendString(b, r.Kind)
	if r.Kind == "gateway" {
		b = append(b, `,"name":`...)
		b = appendString(b, r.Name)
	} else {
		b = append(b, `,"command":`...)
		b = appendString(b, r.Command)
	}
	b = append(b, `,"sha256":`...)
	b = appendNullable(b, r.SHA256, r.SHA256 != "")
	changed := r.SHA256After != "" && r.SHA256After != r.SHA256
	if changed {
		b = append(b, `,"sha256_before":`...)
		b = appendString(b, r.SHA256)
		b = append(b, `,"sha256_after":`...)
		b = appendString(b, r.SHA256After)
		b = append(b, `,"changed_during_run":true`...)
	}
	status := r.Status
	if r.Interrupted {
		status = "interrupted"
	}
	if status != "" {
		b = append(b, `,"status":`...)
		b = appendString(b, status)
	}
	b = append(b, `,"exit_code":`...)
	if r.Result.ExitCode == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*r.Result.ExitCode), 10)
	}
	b = append(b, `,"timed_out":`...)
	b = strconv.AppendBool(b, r.Result.TimedOut)
	b = append(b, `,"error":`...)
	b = appendNullable(b, errText, hasErr)
	b = append(b, `,"elapsed_seconds":`...)
	var err error
	if b, err = appendFloat(b, elapsed); err != nil {
		return nil, err
	}
	b = append(b, `,"parsed":`...)
	if b, err = appendValue(b, parsed); err != nil {
		return nil, err
	}
	if r.Via != "" {
		b = append(b, `,"via":`...)
		b = appendString(b, r.Via)
	}
	if r.PID != 0 {
		b = append(b, `,"pid":`...)
		b = strconv.AppendInt(b, int64(r.PID), 10)
	}
	if r.Signal != 0 {
		b = append(b, `,"signal":`...)
		b = strconv.AppendInt(b, int64(r.Signal), 10)
	}
	if r.Refusal != "" {
		b = append(b, `,"refusal":`...)
		b = appendString(b, capString(r.Refusal))
	} else if r.Via == ViaExec {
		// The guard's lines always carry refusal, null when it ran (SPEC §17).
		b = append(b, `,"refusal":null`...)
	}
	for _, f := range [...]struct{ key, value string }{{"answer", r.AnswerKind}, {"wrapped", r.Wrapped}} {
		if f.value != "" {
			b = append(b, `,"`+f.key+`":`...)
			b = appendString(b, f.value)
		}
	}
	if cut {
		b = append(b, `,"truncated":true`...)
	}
	if r.ID != "" {
		b = append(b, `,"id":`...)
		b = appendString(b, r.ID)
	}
	b = append(b, "}\n"...)
	return pyjson.RestoreNonFinite(b), nil
}

// appendNullable is s as a JSON string, or null when !ok.
func appendNullable(b []byte, s string, ok bool) []byte {
	if !ok {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendValue is v, one of the kinds capAnswer returns, as encoding/json
// writes it: objects as their MarshalJSON writes them.
func appendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return appendString(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case float64:
		return appendFloat(b, v)
	case json.Number:
		if v == "" {
			v = "0"
		}
		if !validNumber(string(v)) {
			return nil, fmt.Errorf("json: invalid number literal %q", v)
		}
		return append(b, v...), nil
	case *pyjson.Object:
		if v == nil {
			return append(b, "null"...), nil
		}
		out := pyjson.Marshal(v, pyjson.Options{Compact: true, Embed: true})
		if !json.Valid(out) {
			// encoding/json refuses what a MarshalJSON writes that is
			// not JSON (a json.Number that is not a number).
			return nil, errors.New("audit: the answer's object is not JSON")
		}
		return append(b, out...), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return nil, fmt.Errorf("audit: cannot encode a %T", v)
}

// appendFloat is f as encoding/json writes a float64 (ES6 number form); a
// NaN or an infinity is an error, as there.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64))
	}
	format, abs := byte('f'), math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // e-09 → e-9
		b = b[:n-1]
	}
	return b, nil
}

// appendString is s as a JSON string as encoding/json writes it without
// HTML escaping: '"', '\\' and control characters escaped, U+2028 and
// U+2029 too, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// validNumber is encoding/json's grammar of a JSON number.
func validNumber(s string) bool {
	if s != "" && s[0] == '-' {
		s = s[1:]
	}
	digits := func() int {
		n := 0
		for n < len(s) && '0' <= s[n] && s[n] <= '9' {
			n++
		}
		s = s[n:]
		return n
	}
	switch {
	case s == "":
		return false
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		digits()
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[1:]
		digits()
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
		}
		if digits() == 0 {
			return false
		}
	}
	return s == ""
}
