// Package answer judges what one hook run said, as the agent does (SPEC §7):
// the single judge of test, doctor, run-event and the guard. It depends
// only on pyjson, pystr and shell, so the guard can import it.
package answer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/pystr"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Events whose answers mean something beyond context (SPEC §7, §7.1).
const (
	EventPreToolCall = "pre_tool_call"
	EventPreLLMCall  = "pre_llm_call"
	EventPreVerify   = "pre_verify"
)

// Actions an Answer can carry.
const (
	ActionBlock    = "block"
	ActionModify   = "modify"
	ActionApprove  = "approve"
	ActionContinue = "continue"
)

// defaultBlockMessage is the agent's wording when a block gives no reason.
const defaultBlockMessage = "Blocked by shell hook."

// stderrBlockLimit is how much of stderr (in characters) an exit-2 block
// quotes as its message.
const stderrBlockLimit = 400

// Answer is what one hook run contributed, in the agent's terms. Exactly one
// of Action or Context is set.
type Answer struct {
	// Action is ActionBlock, ActionModify, ActionApprove, ActionContinue, or
	// "" for a context answer.
	Action string
	// Message: the block reason, the pre_verify nudge, or the approval note
	// ("" = none).
	Message string
	// RuleKey is the approval's rule key ("" = none).
	RuleKey string
	// Args are the rewritten tool arguments of a modify.
	Args *pyjson.Object
	// Context is the text a hook adds to the LLM's context (non-pre_tool_call
	// events other than pre_verify).
	Context *string
}

// Wire is the answer as the agent represents it, the object `test` shows as
// "parsed (Hermes wire shape)". A nil answer is nil (JSON null).
func (a *Answer) Wire() *pyjson.Object {
	if a == nil {
		return nil
	}
	o := pyjson.NewObject()
	switch a.Action {
	case ActionBlock, ActionContinue:
		o.Set("action", a.Action).Set("message", a.Message)
	case ActionModify:
		o.Set("action", a.Action).Set("args", a.Args)
	case ActionApprove:
		o.Set("action", a.Action)
		if a.Message != "" {
			o.Set("message", a.Message)
		}
		if a.RuleKey != "" {
			o.Set("rule_key", a.RuleKey)
		}
	case "":
		if a.Context != nil {
			o.Set("context", *a.Context)
		}
	default:
		o.Set("action", a.Action)
	}
	return o
}

// MarshalJSON writes Wire, so an Answer can sit in typed --json output.
func (a *Answer) MarshalJSON() ([]byte, error) {
	return pyjson.Marshal(a.Wire(), pyjson.Options{Compact: true, Embed: true}), nil
}

// EvalInput is one finished run of one hook and what is needed to judge it.
type EvalInput struct {
	Event   string
	Command string // as configured; quoted in fail-closed messages
	// Blocking: the event is pre_tool_call, where exit 2 and fail_closed
	// apply.
	Blocking   bool
	FailClosed bool
	Timeout    int // configured seconds, for the timeout message
	Result     shell.Result
	// Ctx bounds reading the answer: the hook's own deadline (reading
	// counts against its timeout, SPEC §22) and the interrupt. nil: none.
	Ctx context.Context
}

// Evaluation is what a run means: an answer (nil when the hook contributed
// nothing) and warnings worth showing the user.
type Evaluation struct {
	Answer   *Answer
	Warnings []string
	// TimedOut: the hook's time ran out while its answer was read; it is
	// judged as a hook that timed out.
	TimedOut bool
}

// Evaluate applies SPEC §7 to one run. It is the single judge used by test,
// doctor and run-event, so they can never disagree about a hook.
//
// Choices where the spec leaves room:
//   - A spawn error or timeout contributes nothing and adds no warning: the
//     result already carries the error and timed_out.
//   - Fail-closed messages share one format, "hook <command> failed closed:
//     <reason>", for spawn errors, timeouts and unparseable stdout alike.
//   - Exit 2 with a block directive on stdout takes the directive's message
//     by its own rules, "Blocked by shell hook." for a blank one included;
//     stderr is only quoted when stdout holds no block directive.
//   - "X (else Y)" reads like the agent's `d.get(X) or d.get(Y)`: Y is used
//     when X is missing or falsy (null, "", 0, false, [], {}); the value
//     chosen must then be a non-blank string.
//   - A result with no exit code, no error and no timeout (only a fake runner
//     makes one) is read like exit 0.
func Evaluate(in EvalInput) Evaluation {
	var ev Evaluation
	res := in.Result
	failClosed := in.Blocking && in.FailClosed
	failed := func(reason string) Evaluation {
		if failClosed {
			ev.Answer = &Answer{Action: ActionBlock,
				Message: fmt.Sprintf("hook %s failed closed: %s", in.Command, reason)}
		}
		return ev
	}

	switch {
	case res.TimedOut:
		return failed(fmt.Sprintf("timed out after %ds", in.Timeout))
	case res.Err != "":
		return failed(res.Err)
	}

	stdout, cut := judgedStdout(res)
	if res.ExitCode != nil && *res.ExitCode != 0 {
		if *res.ExitCode == 2 && in.Blocking {
			ev.Answer = exitTwoBlock(in.Ctx, stdout, res.Stderr)
			return ev
		}
		// A hook killed by a signal (-N, as Python reports it) is read
		// like any other failed exit: its stdout still counts, and
		// fail_closed does not fire on the signal alone.
		if code := *res.ExitCode; code < 0 {
			ev.Warnings = append(ev.Warnings,
				fmt.Sprintf("hook %s was killed by signal %d (exit code %d)", in.Command, -code, code))
		} else {
			ev.Warnings = append(ev.Warnings,
				fmt.Sprintf("hook %s exited with code %d", in.Command, code))
		}
	}
	if cut != "" {
		// The agent would parse all of it; we cannot, so it is judged as
		// an answer that does not parse, which a fail-closed hook blocks.
		ev.Warnings = append(ev.Warnings, fmt.Sprintf(
			"hook %s: its answer was cut (%s); it is judged unparseable", in.Command, cut))
		return failed(fmt.Sprintf("unparseable stdout (its answer was cut: %s)", cut))
	}
	if len(stdout) == 0 {
		return ev
	}
	v, err := pyjson.DecodeContext(in.Ctx, stdout)
	if errors.Is(err, context.DeadlineExceeded) {
		ev.TimedOut = true
		ev.Warnings = append(ev.Warnings, fmt.Sprintf(
			"hook %s: its %d s ran out while its answer (%d bytes) was read; it counts as timed out", in.Command, in.Timeout, len(stdout)))
		return failed(fmt.Sprintf("timed out after %ds (while its answer was read)", in.Timeout))
	}
	if errors.Is(err, context.Canceled) {
		return ev // interrupted: the dispatch stops and says so
	}
	if err != nil {
		ev.Warnings = append(ev.Warnings,
			fmt.Sprintf("hook %s printed stdout that is %s; it is ignored", in.Command, NotJSON(head(stdout), err)))
		return failed("unparseable stdout (expected a JSON object)")
	}
	obj, ok := v.(*pyjson.Object)
	if !ok {
		return failed("unparseable stdout (expected a JSON object)")
	}
	ev.Answer = parseAnswer(in.Event, obj)
	return ev
}

// judgedStdout is the stdout the agent parses, stripped: all of it, read
// back from the run's spool when it passed the display cap (SPEC §29 item
// 10). cut says why the whole answer is not there ("" when it is); stdout
// is then "".
//
// A big answer is parsed from the bytes read back, without a copy when
// they are already what Python's text mode makes of them (valid UTF-8, no
// "\r"): at most twice its size is in memory while it is read.
func judgedStdout(res shell.Result) (stdout []byte, cut string) {
	sp := res.Answer
	if sp == nil {
		return []byte(pystr.Strip(res.Stdout)), ""
	}
	if sp.Cut {
		return nil, fmt.Sprintf("stdout passed %s, the most that is read", sizeText(sp.Limit()))
	}
	if kept := pystr.Strip(res.Stdout); kept != "" && kept[0] != '{' {
		// Not an object, whatever follows: its first MiB judges it as
		// all of it would, and a flood is never read back.
		return []byte(kept), ""
	}
	b, err := sp.Bytes()
	if err != nil {
		return nil, fmt.Sprintf("stdout could not be kept whole for reading: %v", err)
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, '\r') >= 0 {
		b = []byte(pystr.DecodeText(b))
	}
	return bytes.TrimFunc(b, pystr.IsSpace), ""
}

// head is the start of an output, enough of it for an excerpt.
func head(b []byte) string {
	const enough = 4*excerptLimit + 8 // whole characters past excerptLimit
	return string(b[:min(len(b), enough)])
}

// sizeText is n bytes in MiB when it is a whole number of them.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// excerptLimit is how much of an output (in characters) a message quotes.
const excerptLimit = 80

// NotJSON says why an output is not an answer: what the JSON reader
// found, what was expected, and how the output starts, quoted (control,
// bidi and zero-width characters escaped) and cut.
func NotJSON(out string, err error) string {
	return fmt.Sprintf("not valid JSON (%v): expected a JSON object, or nothing; it starts %s", err, excerpt(out))
}

// excerpt is the start of s as a Go-quoted string: what is in it is
// visible, whitespace and escapes included.
func excerpt(s string) string {
	if r := []rune(s); len(r) > excerptLimit {
		return strconv.Quote(string(r[:excerptLimit])) + "…"
	}
	return strconv.Quote(s)
}

// exitTwoBlock is the block an exit 2 on pre_tool_call always produces.
// Its stdout is read within the hook's time; past it, stderr is quoted.
func exitTwoBlock(ctx context.Context, stdout []byte, stderr string) *Answer {
	v, _ := pyjson.DecodeContext(ctx, stdout)
	if obj, ok := v.(*pyjson.Object); ok {
		if msg, ok := blockDirective(obj); ok {
			return &Answer{Action: ActionBlock, Message: msg}
		}
	}
	msg := pystr.Strip(stderr)
	if r := []rune(msg); len(r) > stderrBlockLimit {
		msg = string(r[:stderrBlockLimit])
	}
	if msg == "" {
		msg = defaultBlockMessage
	}
	return &Answer{Action: ActionBlock, Message: msg}
}

// parseAnswer reads the JSON object a hook printed (§7 step 4).
func parseAnswer(event string, obj *pyjson.Object) *Answer {
	switch event {
	case EventPreToolCall:
		return parseToolCallAnswer(obj)
	case EventPreVerify:
		verdict, _ := Or(obj, "action", "decision").(string)
		verdict = strings.ToLower(pystr.Strip(verdict))
		msg, _ := Or(obj, "message", "reason").(string)
		msg = pystr.Strip(msg)
		if (verdict == "continue" || verdict == "block") && msg != "" {
			// Both words ask the agent to keep working instead of finishing.
			return &Answer{Action: ActionContinue, Message: msg}
		}
		return nil
	default:
		if ctx, ok := obj.Get("context"); ok {
			if s, isStr := ctx.(string); isStr && !pystr.IsBlank(s) {
				return &Answer{Context: &s}
			}
		}
		return nil
	}
}

func parseToolCallAnswer(obj *pyjson.Object) *Answer {
	if msg, ok := blockDirective(obj); ok {
		return &Answer{Action: ActionBlock, Message: msg}
	}
	action, _ := obj.Get("action")
	decision, _ := obj.Get("decision")
	if action == ActionModify {
		if args, ok := obj.Get("args"); ok {
			if a, isObj := args.(*pyjson.Object); isObj && a != nil {
				return &Answer{Action: ActionModify, Args: a}
			}
		}
	}
	if decision == ActionModify {
		if args, ok := obj.Get("tool_input"); ok {
			if a, isObj := args.(*pyjson.Object); isObj && a != nil {
				return &Answer{Action: ActionModify, Args: a}
			}
		}
	}
	// decision: approve is deliberately not an approval: only the explicit
	// action form is, as in the agent, which also strips both strings.
	if action == ActionApprove {
		ans := &Answer{Action: ActionApprove}
		if s, ok := obj.Get("message"); ok {
			ans.Message = pystr.Strip(nonBlankString(s))
		}
		if s, ok := obj.Get("rule_key"); ok {
			ans.RuleKey = pystr.Strip(nonBlankString(s))
		}
		return ans
	}
	return nil
}

// blockDirective reports whether obj asks for a block (action first, then
// decision; values are case-sensitive) and with which message.
func blockDirective(obj *pyjson.Object) (string, bool) {
	var msg any
	if a, _ := obj.Get("action"); a == ActionBlock {
		msg = Or(obj, "message", "reason")
	} else if d, _ := obj.Get("decision"); d == ActionBlock {
		msg = Or(obj, "reason", "message")
	} else {
		return "", false
	}
	if s := nonBlankString(msg); s != "" {
		return s, true
	}
	return defaultBlockMessage, true
}

// nonBlankString returns v when it is a string with something besides white
// space in it, else "".
func nonBlankString(v any) string {
	if s, ok := v.(string); ok && !pystr.IsBlank(s) {
		return s
	}
	return ""
}

// Truthy is Python's bool() of a decoded JSON value.
func Truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case string:
		return t != ""
	case json.Number:
		// Python parses JSON numbers to int or float; either is falsy only
		// when zero. An overflow parses to ±Inf (truthy), an underflow to 0
		// (falsy), as in Python.
		f, _ := strconv.ParseFloat(t.String(), 64)
		return f != 0
	case int:
		return t != 0
	case int64:
		return t != 0
	case float64:
		return t != 0
	case []any:
		return len(t) > 0
	case *pyjson.Object:
		return t.Len() > 0
	}
	return true
}

// Or is Python's `d.get(k1) or d.get(k2) or ...`: the first truthy value,
// else the last one looked up (nil when the key is missing).
func Or(o *pyjson.Object, keys ...string) any {
	var v any
	for _, k := range keys {
		v, _ = o.Get(k)
		if Truthy(v) {
			return v
		}
	}
	return v
}

// Kinds of answer, as the audit log records them (SPEC §17).
const (
	KindBlock   = "block"
	KindModify  = "modify"
	KindApprove = "approve"
	KindContext = "context"
	KindNone    = "none"
)

// Kind names what an answer asks of the agent: block, modify, approve,
// context or none. pre_verify's "keep working" counts as a block: it stops
// the agent from finishing.
func (a *Answer) Kind() string {
	switch {
	case a == nil:
		return KindNone
	case a.Action == ActionBlock, a.Action == ActionContinue:
		return KindBlock
	case a.Action == ActionModify:
		return KindModify
	case a.Action == ActionApprove:
		return KindApprove
	case a.Context != nil:
		return KindContext
	}
	return KindNone
}
