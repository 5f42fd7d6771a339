package casefile

import (
	"crypto/sha256"
	"slices"
	"time"

	"github.com/hermes-hooks/hermes/internal/audit"
)

// Events whose firings decide something a case can expect (SPEC §7.1):
// the others only observe or add context, so from-log skips them.
const (
	eventPreToolCall = "pre_tool_call"
	eventPreVerify   = "pre_verify"
)

// SkipNoDecision is the reason for firings of the other events.
const SkipNoDecision = "the event's hooks decide nothing a case can expect (only pre_tool_call and pre_verify do)"

// defaultBlockMessage is what a block says when the hook gave no message.
const defaultBlockMessage = "Blocked by shell hook."

// firing is the audit lines of one firing (one id), aggregated as the
// agent aggregates its hooks' answers (SPEC §7.1).
type firing struct {
	id, event string
	time      time.Time
	selected  bool
	commands  []string
	allExec   bool

	block, approve, modify, cont bool
	blockMessage                 string

	payloadSum [32]byte
	call       call
}

func (f *firing) add(l *audit.Line, parsed map[string]any) {
	if len(f.commands) == 0 {
		f.allExec = true
	}
	f.commands = append(f.commands, l.Hook())
	f.allExec = f.allExec && l.Via == audit.ViaExec
	switch parsed["action"] {
	case "block":
		if !f.block {
			f.block = true
			f.blockMessage, _ = parsed["message"].(string)
			// An exit-2 block through the guard: the agent quoted the
			// hook's stderr, which went straight to it and the guard
			// never saw; the message recorded is not the agent's.
			if l.Via == audit.ViaExec && l.ExitCode != nil && *l.ExitCode == 2 && f.blockMessage == defaultBlockMessage {
				f.blockMessage = ""
			}
		}
	case "approve":
		f.approve = true
	case "modify":
		f.modify = true
	case "continue":
		f.cont = true
	}
}

// merge folds g, a later firing of the same call, into f.
func (f *firing) merge(g *firing) {
	f.commands = append(f.commands, g.commands...)
	if g.block && !f.block {
		f.block, f.blockMessage = true, g.blockMessage
	}
	f.approve = f.approve || g.approve
	f.modify = f.modify || g.modify
	f.cont = f.cont || g.cont
}

// decides reports whether the firing's event has a decision to expect.
func (f *firing) decides() bool { return f.event == eventPreToolCall || f.event == eventPreVerify }

// caseOf is the firing as a case: the recorded payload and the decision.
func (f *firing) caseOf() Case {
	c := Case{Event: f.event, Time: f.time}
	short := f.call.digest[:6]
	switch {
	case f.call.tool != "" && f.call.input != "":
		c.Name = f.call.tool + ": " + f.call.input + " (" + short + ")"
	case f.call.tool != "":
		c.Name = f.call.tool + " (" + short + ")"
	default:
		c.Name = f.event + " (" + short + ")"
	}
	switch f.event {
	case eventPreToolCall:
		switch {
		case f.block:
			c.Expect = Expect{Action: "block", MessageContains: f.blockMessage}
		case f.approve:
			c.Expect.Action = "approve"
		case f.modify:
			c.Expect.Action = "modify"
		default:
			c.Expect.Action = "allow"
		}
	case eventPreVerify:
		c.Expect.Action = "finish"
		if f.cont {
			c.Expect.Action = "continue"
		}
	}
	return c
}

// guardMerger joins the guard's lines of one call of the agent. The agent
// fires each protected hook through its own guard process, so each writes
// its own line with its own id; they carry the same payload bytes (the
// agent's tool_call_id among them). A guard firing joins the latest
// earlier guard firing of the same event and payload unless that one
// already holds its hook (then it is the next call).
type guardMerger struct {
	open map[[32]byte]*firing
}

func newGuardMerger() *guardMerger { return &guardMerger{open: map[[32]byte]*firing{}} }

// merge reports whether f was folded into an earlier firing.
func (m *guardMerger) merge(f *firing) bool {
	if !f.allExec {
		return false
	}
	key := sha256.Sum256(append([]byte(f.event+"\x00"), f.payloadSum[:]...))
	if g := m.open[key]; g != nil && !overlaps(g.commands, f.commands) {
		g.merge(f)
		return true
	}
	m.open[key] = f
	return false
}

func overlaps(a, b []string) bool {
	for _, s := range b {
		if slices.Contains(a, s) {
			return true
		}
	}
	return false
}
