package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// Settings are the trust switches the guard decides with: it reads no
// config, and a protected hook is always pinned and strictly checked.
var Settings = trust.Settings{PinScripts: true, StrictModes: true}

// Main is the guard: it decides on its own argv (args[0] included) and
// either runs COMMAND exactly as the agent would have run it, or refuses.
// It returns the exit code; when COMMAND died of a signal, Main dies of the
// same signal and does not return.
func Main(args []string) int {
	if isWitness(args) {
		return witnessMain(os.Stdin)
	}
	g := &run{start: time.Now(), args: args, userHome: os.Getenv("HOME")}
	g.hermesHome = os.Getenv("HERMES_HOME")
	if g.hermesHome == "" {
		home := g.userHome
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		g.hermesHome = filepath.Join(home, ".hermes")
	}
	g.audit = os.Getenv(NoAuditEnv) != "1"

	inv, err := Parse(args)
	g.inv = inv
	if err != nil {
		return g.refuse("", fmt.Sprintf("this guard command cannot be read: %v", err),
			"protect the hook again with: hermes hooks protect")
	}
	list, err := g.readApproval(args)
	if err != nil {
		return g.refuse("", err.Error(), "")
	}
	entry, ok := trust.FindByArgv(list, inv.Event, args, g.userHome)
	if !ok {
		g.command = shell.Join(args)
		return g.refuse(scriptOf(inv.Inner), trust.SkipNotApproved, "approve it with: hermes hooks accept "+shell.Quote(g.innerText()))
	}
	g.command = entry.Command
	d, derr := dialectOf(inv)
	judged, noScript := Judged(inv)
	v := trust.Decide(list, trust.Hook{Event: inv.Event, Command: entry.Command, Argv: judged, NoScript: noScript, Home: g.userHome}, Settings)
	g.sha = v.SHA256()
	if !v.Allowed() {
		next := "see what changed with: hermes hooks diff " + shell.Quote(g.innerText()) + ", then approve it with: hermes hooks accept " + shell.Quote(g.innerText())
		if v.Unsafe != nil || v.Refusal != "" {
			next = "fix it, then approve it again with: hermes hooks accept " + shell.Quote(g.innerText())
		}
		return g.refuse(v.Script, v.Reason(), next)
	}
	if derr != nil {
		return g.refuse(v.Script, derr.Error(), "")
	}
	return g.exec(d)
}

// readApproval reads, of the allowlist, only the entry of the guard's
// event whose command is its argv (SPEC §29 item 3: a firing's cost does
// not grow with the allowlist beyond reading it).
func (g *run) readApproval(args []string) (*allowlist.List, error) {
	list, _, err := allowlist.Open(g.hermesHome).FindFirst(g.inv.Event, func(command string) bool {
		return trust.CommandIsArgv(command, args, g.userHome)
	})
	return list, err
}

// run is one invocation of the guard.
type run struct {
	start                time.Time
	args                 []string
	inv                  Invocation
	userHome, hermesHome string
	audit                bool
	command              string // the allowlist's command ("as written"), for the audit line
	sha                  string
}

// blocking: the agent blocks the tool call on this event's exit 2.
func (g *run) blocking() bool { return g.inv.Event == answer.EventPreToolCall }

// innerText is COMMAND as written in the wrapped command, else its argv
// quoted.
func (g *run) innerText() string {
	if inner, _, ok := Unwrap(g.command); ok {
		return inner
	}
	return shell.Join(g.inv.Inner)
}

// scriptOf names the script of argv, "" when there is none.
func scriptOf(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	s, _ := shell.ResolveScript(argv)
	return s
}

// refuse runs nothing (SPEC §17 item 4): one line on stderr, a block on
// stdout when the hook is fail-closed on a blocking event (exit 2), else
// exit 1.
func (g *run) refuse(script, reason, next string) int {
	if g.command == "" {
		g.command = shell.Join(g.args)
	}
	what := "hook " + g.innerText()
	if script != "" {
		what += " (script " + script + ")"
	}
	line := "hermes-guard: refused " + what + ": " + reason
	if next != "" {
		line += "; " + next
	}
	fmt.Fprintln(os.Stderr, oneLine(line))
	if !g.audit {
		// hermes fired it (run-event, test, doctor): say why, for it.
		fmt.Fprintln(os.Stderr, refusalMarker+oneLine(reason))
	}
	code := 1
	var ans *answer.Answer
	if g.inv.FailClosed && g.blocking() {
		ans = &answer.Answer{Action: answer.ActionBlock,
			Message: fmt.Sprintf("hook %s refused by hermes: %s", g.innerText(), reason)}
		writeBlock(ans)
		code = 2
	}
	g.record(audit.Record{Status: audit.StatusRefused, Refusal: reason,
		Result: shell.Result{Elapsed: time.Since(g.start)}}, ans)
	return code
}

// oneLine keeps a message on one line whatever a path or reason holds.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(s)
}

// record appends the run's audit line; a failure is a warning on stderr and
// changes nothing else.
func (g *run) record(r audit.Record, ans *answer.Answer) {
	if !g.audit {
		return
	}
	r.Time, r.Event, r.Kind, r.Command, r.SHA256 = g.start, g.inv.Event, "shell", g.command, g.sha
	r.Via, r.PID, r.AnswerKind = audit.ViaExec, os.Getpid(), ans.Kind()
	if ans != nil {
		r.Answer = ans.Wire()
	}
	if err := audit.Append(g.hermesHome, r); err != nil {
		fmt.Fprintln(os.Stderr, oneLine("hermes-guard: warning: the audit line was not written: "+err.Error()))
	}
}

// writeBlock prints a block answer on stdout as the agent reads it.
func writeBlock(ans *answer.Answer) {
	os.Stdout.Write(append(pyjson.Marshal(ans.Wire(), pyjson.Options{}), '\n'))
}

// refusalMarker starts the line the guard adds on stderr, when hermes fires
// it, to say why it refused; TakeRefusal takes it out again.
const refusalMarker = "hermes-guard-refusal: "

// TakeRefusal removes the guard's refusal line from the stderr of a run
// hermes fired and returns the reason ("" when it did not refuse).
func TakeRefusal(stderr string) (rest, reason string) {
	i := strings.LastIndex(stderr, refusalMarker)
	if i < 0 || (i > 0 && stderr[i-1] != '\n') {
		return stderr, ""
	}
	line, after, _ := strings.Cut(stderr[i+len(refusalMarker):], "\n")
	return stderr[:i] + after, line
}
