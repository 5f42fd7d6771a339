package claude

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes/internal/pyjson"
)

// A Run is how the Claude Code hook ended.
type Run struct {
	Stdout, Stderr []byte
	Exit           int
	// Failed: it could not start, timed out or was killed; Reason says
	// which. Exit is then meaningless.
	Failed bool
	Reason string
	// FailClosed is the hook's onFailure: "block" (fail_closed in the
	// config): a crash blocks instead of letting the call through.
	FailClosed bool
	// Command names the hook in messages.
	Command string
}

// A Reply is what the guard gives the agent for a run: Stdout in Hermes'
// terms (SPEC §7), the exit code, and warnings for stderr. Answer is the
// §17 audit word: block, modify, approve, context, continue or none.
type Reply struct {
	Stdout   []byte
	Exit     int
	Warnings []string
	Answer   string
}

// Blocked is the message of a block with no reason of its own (§7).
const Blocked = "Blocked by shell hook."

// Answer reads a run as Claude Code reads it at c's event and translates
// it for Hermes. What Claude Code would do and Hermes cannot express at
// that event becomes nothing, with a warning naming it.
func Answer(c *Call, r Run) Reply {
	a := answerer{c: c, r: r}
	a.read()
	return a.reply
}

type answerer struct {
	c     *Call
	r     Run
	reply Reply
}

func (a *answerer) warnf(format string, args ...any) {
	a.reply.Warnings = append(a.reply.Warnings, fmt.Sprintf("hook %s: ", a.r.Command)+fmt.Sprintf(format, args...))
}

func (a *answerer) blocking() bool { return a.c.Event == "pre_tool_call" }

func (a *answerer) emit(answer string, o *pyjson.Object) {
	a.reply.Answer = answer
	a.reply.Stdout = append(pyjson.Marshal(o, pyjson.Options{}), '\n')
	if answer == "block" {
		// Exit 2 blocks on its own too, should stdout be lost.
		a.reply.Exit = 2
	}
}

func (a *answerer) block(msg string) {
	if strings.TrimSpace(msg) == "" {
		msg = Blocked
	}
	a.emit("block", pyjson.NewObject().Set("action", "block").Set("message", msg))
}

// inexpressible: Claude Code would act on this answer; Hermes has no such
// answer at this event.
func (a *answerer) inexpressible(what string) {
	a.warnf("%s at %s has no Hermes counterpart at %s; it is ignored", what, a.c.ClaudeEvent, a.c.Event)
}

func (a *answerer) read() {
	a.reply.Answer = "none"
	r := a.r
	if r.Failed {
		a.crashed(r.Reason)
		if a.reply.Answer == "none" {
			a.reply.Exit = 1 // a non-blocking error: the agent logs it
		}
		return
	}
	switch r.Exit {
	case 0:
	case 2:
		a.exit2()
		return
	default:
		a.crashed(fmt.Sprintf("exit status %d", r.Exit))
		if a.reply.Answer == "none" {
			// A non-blocking error, as in Claude Code: the agent logs a
			// warning and goes on.
			a.reply.Exit = 1
		}
		return
	}
	out := bytes.TrimSpace(r.Stdout)
	if len(out) == 0 {
		return
	}
	o, err := pyjson.DecodeObject(out)
	if err != nil || !bytes.HasPrefix(out, []byte("{")) {
		a.plain(string(out))
		return
	}
	a.object(o)
}

// crashed: Claude Code lets the call through, unless onFailure is block.
func (a *answerer) crashed(reason string) {
	if a.r.FailClosed && a.blocking() {
		a.block(fmt.Sprintf("hook %s failed closed: %s", a.r.Command, reason))
	}
}

func (a *answerer) exit2() {
	msg := strings.TrimSpace(string(a.r.Stderr))
	switch a.c.ClaudeEvent {
	case "PreToolUse":
		a.block(first(msg, 400))
	case "Stop":
		if msg == "" {
			a.warnf("exit 2 at Stop without a reason on stderr: Hermes needs a message to continue; it is ignored")
			return
		}
		a.cont(msg)
	case "UserPromptSubmit":
		a.inexpressible("blocking the prompt (exit 2)")
	case "PostToolUse":
		a.inexpressible("feedback to the model after the tool ran (exit 2)")
	case "SubagentStop":
		a.inexpressible("keeping the subagent going (exit 2)")
	}
	// SessionStart, SessionEnd, SubagentStart: exit 2 only shows stderr
	// in Claude Code; the guard passes stderr through.
	if a.reply.Answer == "none" {
		a.reply.Exit = 1
	}
}

func (a *answerer) cont(msg string) {
	a.emit("continue", pyjson.NewObject().Set("action", "continue").Set("message", strings.TrimSpace(msg)))
}

func (a *answerer) context(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	a.emit("context", pyjson.NewObject().Set("context", s))
}

// plain stdout: context on the events that take it, else only shown in
// Claude Code's transcript.
func (a *answerer) plain(s string) {
	switch a.c.ClaudeEvent {
	case "UserPromptSubmit", "SessionStart":
		a.context(s)
	}
}

func (a *answerer) object(o *pyjson.Object) {
	if m := o.Str("systemMessage"); m != "" {
		a.reply.Warnings = append(a.reply.Warnings, m)
	}
	hso, _ := o.Value("hookSpecificOutput").(*pyjson.Object)
	if cont, ok := o.Value("continue").(bool); ok && !cont {
		reason := o.Str("stopReason")
		switch a.c.ClaudeEvent {
		case "PreToolUse":
			a.block(reason)
		case "Stop", "SubagentStop", "SessionStart", "SessionEnd", "SubagentStart":
			// Stop with continue:false stops for good: Hermes finishes,
			// which is what it does when no hook asks to go on.
			if a.c.ClaudeEvent != "Stop" {
				a.inexpressible("stopping the session (continue: false)")
			}
		default:
			a.inexpressible("stopping the session (continue: false)")
		}
		return
	}
	switch a.c.ClaudeEvent {
	case "PreToolUse":
		a.preToolUse(o, hso)
	case "PostToolUse":
		if o.Str("decision") == "block" {
			a.inexpressible("decision: block (feedback after the tool ran)")
		}
		if s := hso.Str("additionalContext"); s != "" {
			a.inexpressible("additionalContext")
		}
	case "UserPromptSubmit", "SessionStart":
		if o.Str("decision") == "block" {
			a.inexpressible("decision: block")
			return
		}
		a.context(hso.Str("additionalContext"))
	case "Stop":
		if o.Str("decision") == "block" {
			reason := o.Str("reason")
			if strings.TrimSpace(reason) == "" {
				a.warnf("decision: block at Stop without a reason: Hermes needs a message to continue; it is ignored")
				return
			}
			a.cont(reason)
		}
	case "SubagentStop":
		if o.Str("decision") == "block" {
			a.inexpressible("decision: block (keeping the subagent going)")
		}
	}
}

func (a *answerer) preToolUse(o, hso *pyjson.Object) {
	decision := hso.Str("permissionDecision")
	reason := hso.Str("permissionDecisionReason")
	updated, hasUpdate := hso.Value("updatedInput").(*pyjson.Object)
	switch decision {
	case "deny":
		a.block(reason)
		return
	case "ask":
		if hasUpdate {
			a.warnf("updatedInput with permissionDecision ask: Hermes asks the human and cannot also rewrite the call; the rewrite is ignored")
		}
		ap := pyjson.NewObject().Set("action", "approve")
		if strings.TrimSpace(reason) != "" {
			ap.Set("message", reason)
		}
		a.emit("approve", ap)
		return
	case "allow", "":
	default:
		a.warnf("permissionDecision %q is not deny, ask or allow; it is ignored", decision)
	}
	if decision == "" {
		// The legacy top-level decision (before hookSpecificOutput).
		switch o.Str("decision") {
		case "block":
			a.block(o.Str("reason"))
			return
		case "approve":
			// Claude's auto-allow: Hermes has none, so the call goes on
			// through its own gates.
		}
	}
	if hasUpdate {
		a.modify(updated)
	}
}

// modify translates updatedInput back to Hermes' arguments.
func (a *answerer) modify(updated *pyjson.Object) {
	args := FromClaude(a.c.Row, updated)
	a.keepRelative(updated, args)
	var dropped []string
	for _, m := range a.c.ToolInput.Members() {
		if _, fixed := a.rowFixed(m.Key); fixed {
			continue
		}
		if !updated.Has(m.Key) {
			dropped = append(dropped, m.Key)
		}
	}
	if len(dropped) > 0 {
		sort.Strings(dropped)
		a.warnf("updatedInput leaves out %s: Hermes merges the rewrite onto the call, so they keep their values", strings.Join(dropped, ", "))
	}
	if args.Len() == 0 {
		return
	}
	a.emit("modify", pyjson.NewObject().Set("action", "modify").Set("args", args))
}

// keepRelative gives a path the hook sent back unchanged its Hermes
// value: the hook read it made absolute (ToClaude), and the agent, not
// this tool, decides which folder a relative path is in.
func (a *answerer) keepRelative(updated, args *pyjson.Object) {
	if a.c.Row == nil {
		return
	}
	for _, f := range a.c.Row.Fields {
		if !f.Path || !updated.Has(f.Claude) {
			continue
		}
		// Strings only: a path given as a list or an object is compared
		// by nothing (and == on two lists would panic).
		sent, isStr := a.c.ToolInput.Value(f.Claude).(string)
		back, backStr := updated.Value(f.Claude).(string)
		orig, had := a.c.HermesArgs.Get(f.Hermes)
		if isStr && backStr && had && back == sent {
			args.Set(f.Hermes, orig)
		}
	}
}

func (a *answerer) rowFixed(key string) (any, bool) {
	if a.c.Row == nil {
		return nil, false
	}
	v, ok := a.c.Row.Fixed[key]
	return v, ok
}

// FromClaude translates a Claude tool_input back to Hermes' argument
// names (the row's fields; the rest under their own names; the row's
// fixed fields, which Hermes has no place for, dropped).
func FromClaude(r *ToolRow, in *pyjson.Object) *pyjson.Object {
	out := pyjson.NewObject()
	for _, m := range in.Members() {
		if r == nil {
			out.Set(m.Key, m.Value)
			continue
		}
		if _, fixed := r.Fixed[m.Key]; fixed {
			continue
		}
		f, ok := r.field(m.Key, false)
		if !ok {
			out.Set(m.Key, m.Value)
			continue
		}
		v := m.Value
		if names, ok := r.Values[f.Claude]; ok {
			if s, isStr := v.(string); isStr {
				for h, c := range names {
					if c == s {
						v = h
					}
				}
			}
		}
		switch {
		case f.One:
			v = []any{v}
		case f.Scale != 0:
			v = unscale(v, f.Scale)
		}
		out.Set(f.Hermes, v)
	}
	return out
}

// first n characters of s.
func first(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
