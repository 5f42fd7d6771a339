package audit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// referenceEncode is how a line was written before encode was written by
// hand: auditJSON through encoding/json. encode must write the same bytes.
func referenceEncode(r Record) ([]byte, error) {
	j := auditJSON{Time: allowlist.FormatTime(r.Time), Event: r.Event, Kind: r.Kind,
		SHA256: pyjson.NullIfEmpty(r.SHA256), ExitCode: r.Result.ExitCode, TimedOut: r.Result.TimedOut,
		Error: pyjson.NullIfEmpty(r.Result.Err), ElapsedSeconds: r.Result.ElapsedSeconds(), Wrapped: r.Wrapped}
	var cut bool
	j.Parsed, cut = capAnswer(r.Answer)
	if e := capString(r.Result.Err); len(e) < len(r.Result.Err) {
		j.Error, cut = &e, true
	}
	j.Truncated = cut
	if r.SHA256After != "" && r.SHA256After != r.SHA256 {
		j.SHA256Before, j.SHA256After = &r.SHA256, &r.SHA256After
		j.ChangedDuringRun = true
	}
	j.Status, j.Via, j.PID, j.Answer, j.ID = r.Status, r.Via, r.PID, r.AnswerKind, r.ID
	if r.Interrupted {
		j.Status = "interrupted"
	}
	if r.Signal != 0 {
		j.Signal = &r.Signal
	}
	if r.Refusal != "" {
		j.Refusal = capString(r.Refusal)
	} else if r.Via == ViaExec {
		j.Refusal = json.RawMessage("null")
	}
	if r.Kind == "gateway" {
		j.Name, j.Error, j.ElapsedSeconds = &r.Name, pyjson.NullIfEmpty(r.Error), r.Elapsed
	} else {
		j.Command = &r.Command
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return pyjson.RestoreNonFinite(buf.Bytes()), nil
}

// TestEncodeAsEncodingJSON: the hand-written line is byte for byte what
// encoding/json wrote, for every field's edge (absent, empty, escaped,
// invalid UTF-8, U+2028, long, non-finite numbers in answers) and random
// mixes of them.
func TestEncodeAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	strs := []string{"", "plain", `q"uote\back`, "ctl\x00\x01\x1f\b\f\n\r\t", "bad\xff\xfeutf8", "sep\u2028\u2029",
		"<html>&amp;", "é日本語🙂", strings.Repeat("x", MaxString+10), strings.Repeat("é", MaxString)}
	str := func() string { return strs[rng.IntN(len(strs))] }
	var value func(depth int) any
	value = func(depth int) any {
		switch rng.IntN(12) {
		case 0:
			return nil
		case 1:
			return rng.IntN(2) == 0
		case 2:
			return str()
		case 3:
			return rng.IntN(1000) - 500
		case 4:
			return []float64{0, 1.5, -2, 1e-7, 3e21, 123456789.125, 1e20, math.NaN(), math.Inf(1)}[rng.IntN(9)]
		case 5:
			return json.Number([]string{"", "0", "-1.5e+10", "12", "1e", "01", "NaN"}[rng.IntN(7)])
		case 6, 7:
			if depth > 9 || rng.IntN(depth+1) > 1 {
				return "deep"
			}
			o := pyjson.NewObject()
			for i := rng.IntN(4); i > 0; i-- {
				o.Set(str(), value(depth+1))
			}
			return o
		case 8:
			if depth > 9 || rng.IntN(depth+1) > 1 {
				return nil
			}
			m := map[string]any{}
			for i := rng.IntN(3); i > 0; i-- {
				m[str()] = value(depth + 1)
			}
			return m
		case 9:
			return &answer.Answer{Action: answer.ActionBlock, Message: str()}
		default:
			if depth > 9 || rng.IntN(depth+1) > 1 {
				return []any{}
			}
			n := rng.IntN(4)
			if depth == 0 {
				n = rng.IntN(70) // more than capAnswer keeps
			}
			l := make([]any, n)
			for i := range l {
				l[i] = value(depth + 1)
			}
			return l
		}
	}
	code, sig := 2, -9
	fixed := []Record{
		{},
		{Time: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Event: "pre_tool_call", Kind: "shell", Command: "/x.sh", Via: ViaRunEvent},
		{Kind: "gateway", Name: "g", Error: "boom", Elapsed: 0.25, Result: shell.Result{Err: strings.Repeat("e", MaxString+1)}},
		{Via: ViaExec, PID: 7, Signal: 9, Status: StatusRan, Result: shell.Result{ExitCode: &sig, Elapsed: 1500 * time.Microsecond}},
		{Via: ViaExec, Refusal: strings.Repeat("r", MaxString+3), SHA256: "a", SHA256After: "b", Interrupted: true},
		{SHA256: "a", SHA256After: "a", Result: shell.Result{ExitCode: &code, TimedOut: true, Elapsed: 3 * time.Hour}},
		{Answer: math.NaN()},
	}
	for i := 0; i < 3000; i++ {
		r := Record{ID: str(), Time: time.Unix(rng.Int64N(2e9), rng.Int64N(2)*rng.Int64N(1e9)), Event: str(), Kind: []string{"shell", "gateway", str()}[rng.IntN(3)],
			Command: str(), Name: str(), SHA256: str(), SHA256After: str(), Interrupted: rng.IntN(4) == 0,
			Result: shell.Result{TimedOut: rng.IntN(2) == 0, Err: str(), Elapsed: time.Duration(rng.Int64N(1e11))},
			Answer: value(0), Error: str(), Elapsed: rng.Float64() * 10, Via: []string{"", ViaExec, ViaRunEvent}[rng.IntN(3)],
			PID: rng.IntN(3) * 1000, Signal: rng.IntN(3) * 9, Status: str(), Refusal: str(), AnswerKind: str(), Wrapped: str()}
		if rng.IntN(2) == 0 {
			c := rng.IntN(300) - 150
			r.Result.ExitCode = &c
		}
		fixed = append(fixed, r)
	}
	failed := 0
	for i, r := range fixed {
		want, werr := referenceEncode(r)
		if werr != nil {
			failed++
		}
		got, gerr := encode(r)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("record %d: error %v, encoding/json's %v", i, gerr, werr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d:\n got %s\nwant %s", i, got, want)
		}
	}
	if failed == 0 || failed > len(fixed)/2 {
		t.Fatalf("%d of %d records could not be encoded: the mix tests too little", failed, len(fixed))
	}
}

// BenchmarkEncode is one audit line, as the guard writes it once per run.
func BenchmarkEncode(b *testing.B) {
	code := 0
	r := Record{ID: "0123456789abcdef0123456789abcdef", Time: time.Now(), Event: "pre_tool_call", Kind: "shell",
		Command: "/home/u/.hermes/agent-hooks/guard.sh", SHA256: strings.Repeat("ab", 32), Via: ViaExec, PID: 4242,
		Status: StatusRan, AnswerKind: "approve", Wrapped: "/usr/local/bin/hermes-guard --event pre_tool_call -- /home/u/.hermes/agent-hooks/guard.sh",
		Result: shell.Result{ExitCode: &code, Elapsed: 2 * time.Millisecond}, Answer: &answer.Answer{Action: answer.ActionApprove}}
	for b.Loop() {
		if _, err := encode(r); err != nil {
			b.Fatal(err)
		}
	}
}
