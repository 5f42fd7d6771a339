package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/answer"
	"github.com/hermes-hooks/hermes/internal/audit"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/record"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/hermes-hooks/hermes/internal/textsafe"
	"github.com/hermes-hooks/hermes/internal/trust"
)

// maxRereads bounds the allowlist's reads again while edits keep
// changing it under a firing.
const maxRereads = 30

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
	if isHelp(args) {
		os.Stdout.WriteString(Usage())
		return 0
	}
	if isDeferred(args) {
		return deferredMain(os.Stdin)
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
	g.id = record.NewID()
	g.startRecording()

	inv, err := Parse(args)
	g.inv = inv
	if err != nil {
		return g.refuse("", fmt.Sprintf("this guard command cannot be read: %v", err),
			"protect the hook again with: hermes hooks protect")
	}
	if why := unsafeHome(g.hermesHome); why != "" {
		return g.refuse("", why, "")
	}
	list, err := g.readApproval(args)
	if err != nil {
		return g.refuse("", err.Error(), "")
	}
	entry, ok := trust.FindByArgv(list, inv.Event, args, g.userHome)
	if !ok {
		g.command = shell.Join(args)
		return g.refuse(scriptOf(inv.Inner), trust.SkipNotApproved, "approve it with: hermes hooks accept "+g.pasteInner())
	}
	g.command = entry.Command
	if why := g.unpinned(entry); why != "" {
		return g.refuse(scriptOf(inv.Inner), why, "")
	}
	d, derr := dialectOf(inv)
	th := Hook(inv, inv.Event, entry.Command, g.userHome, g.hermesHome)
	v := trust.Decide(list, th, Settings)
	// Read before the script was hashed, the allowlist may predate an edit
	// whose new content is now at the path (SPEC §25): read it again, after
	// the hash, and it approves that content if edit did. Edits one after
	// another can each move the script on between the read and the hash:
	// another round is taken while the allowlist keeps changing (an edit
	// writes it twice). Content no edit approved stays modified in every
	// round, and once the file has not changed since the last read the
	// answer is final.
	store := allowlist.Open(g.hermesHome)
	var last os.FileInfo
	for round := 0; round < maxRereads && v.Drift == allowlist.DriftModified; round++ {
		now, _ := os.Stat(store.Path)
		if last != nil && now != nil && os.SameFile(now, last) && now.ModTime().Equal(last.ModTime()) && now.Size() == last.Size() {
			break
		}
		last = now
		again, _, err := store.Read()
		if err != nil {
			break
		}
		v = trust.Decide(again, th, Settings)
	}
	g.hook, g.verdict = th, v
	g.sha = v.SHA256()
	if !v.Allowed() {
		next := "see what changed with: hermes hooks diff " + g.pasteInner() + ", then approve it with: hermes hooks accept " + g.pasteInner()
		if v.Unsafe != nil || v.Refusal != "" {
			next = "fix it, then approve it again with: hermes hooks accept " + g.pasteInner()
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
	list, _, err := allowlist.Open(g.hermesHome).FindFirstNoted(g.inv.Event, noteName(g.inv.Event, args, g.userHome), func(command string) bool {
		return trust.CommandIsArgv(command, args, g.userHome)
	})
	return list, err
}

// noteName names the note of where this hook's entry is in the allowlist
// (allowlist.FindFirstNoted): one per event, argv and home.
func noteName(event string, args []string, home string) string {
	h := sha256.New()
	for _, s := range append([]string{event, home}, args...) {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// run is one invocation of the guard.
type run struct {
	start                time.Time
	args                 []string
	inv                  Invocation
	userHome, hermesHome string
	audit                bool
	// id names this run in the audit log and the payload store (SPEC
	// §26): each guard process is one run of one hook; its witness and
	// deferred writer write nothing for an id already written (§29 item 5).
	id      string
	rec     *recording // nil: not recording
	command string     // the allowlist's command ("as written"), for the audit line
	sha     string
	hook    trust.Hook
	verdict trust.Verdict
	hidden  secrets // the environment's secrets, read when first needed
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

// shownInner is innerText with secrets as ${NAME} (SPEC §24 item 4).
func (g *run) shownInner() string { return g.secrets().hide(g.innerText()) }

// pasteInner is shownInner quoted for pasting into a shell (SPEC §24
// item 6): a hint's command is quoted, never escaped for display.
func (g *run) pasteInner() string { return textsafe.ShellQuote(g.shownInner()) }

// refuse runs nothing (SPEC §17 item 4): one line on stderr, a block on
// stdout when the hook is fail-closed on a blocking event (exit 2), else
// exit 1. next, the hint, quotes its commands for pasting.
func (g *run) refuse(script, reason, next string) int {
	if g.command == "" {
		g.command = shell.Join(g.args)
	}
	what := "hook " + g.innerText()
	if script != "" {
		what += " (script " + script + ")"
	}
	line := textsafe.Command(g.secrets().hide("hermes-guard: refused " + what + ": " + reason))
	if next != "" {
		line += "; " + next
	}
	os.Stderr.WriteString(line + "\n")
	if !g.audit {
		// hermes fired it (run-event, test, doctor): say why, for it.
		fmt.Fprintln(os.Stderr, refusalMarker+oneLine(g.secrets().hide(reason)))
	}
	code := 1
	var ans *answer.Answer
	if g.inv.FailClosed && g.blocking() {
		ans = &answer.Answer{Action: answer.ActionBlock,
			Message: g.secrets().hide(fmt.Sprintf("hook %s refused by hermes: %s", g.innerText(), reason))}
		writeBlock(ans)
		code = 2
	}
	g.saveUnread()
	g.record(audit.Record{Status: audit.StatusRefused, Refusal: reason,
		Result: shell.Result{Elapsed: time.Since(g.start)}}, ans)
	return code
}

// oneLine keeps a message on one line whatever a path or reason holds.
func oneLine(s string) string {
	return strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(s)
}

// record appends the run's audit line; a failure is a warning on stderr and
// changes nothing else. A lock held by another process never delays the
// hook's result (SPEC §29 item 4): the line is handed to a writer that
// outlives the guard (deferred.go).
func (g *run) record(r audit.Record, ans *answer.Answer) {
	g.waitSaved()
	if !g.audit {
		return
	}
	r.ID, r.Time, r.Event, r.Kind, r.SHA256 = g.id, g.start, g.inv.Event, "shell", g.sha
	r.Command, r.Wrapped = g.auditCommand()
	r.Via, r.PID, r.AnswerKind, r.FailClosed = audit.ViaExec, os.Getpid(), ans.Kind(), g.inv.FailClosed
	if ans != nil {
		r.Answer = ans.Wire()
	}
	e, err := audit.Encode(r)
	if err == nil {
		err = audit.TryAppend(g.hermesHome, e)
	}
	if errors.Is(err, audit.ErrBusy) {
		err = g.deferLine(e)
	}
	if err != nil {
		g.say("hermes-guard: warning: the audit line was not written: " + err.Error())
	}
}

// auditCommand is how the line names the hook (SPEC §24 item 4): the
// command it guards, secrets as ${NAME}, and the wrapped command.
func (g *run) auditCommand() (command, wrapped string) {
	if _, _, ok := Unwrap(g.command); ok {
		return AuditCommand(g.command)
	}
	return g.secrets().hide(g.command), ""
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
