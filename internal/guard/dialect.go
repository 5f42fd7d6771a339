package guard

import (
	"fmt"
	"sort"
	"strings"
)

// Dialect translates between the agent and a hook written for another
// tool (SPEC §19: `--dialect claude`): the payload before the hook runs,
// its answer after. A dialect sees the Invocation, so its own flags
// (--project-dir, --if) reach it through Invocation.Extra. One value
// serves one run: it may keep what Input learnt for Answer.
type Dialect interface {
	// Input turns the payload the agent wrote on stdin into what the hook
	// reads, and the environment it adds. In.Skip set: the hook is not
	// run at all (an --if rule that does not match, a project's hook
	// outside the project) and the guard answers nothing.
	Input(inv Invocation, payload []byte) (In, error)
	// Answer turns how the hook ended into what the agent reads: the
	// stdout to write, the exit code to end with, and warnings for
	// stderr.
	Answer(inv Invocation, out Out) (stdout []byte, code int, warnings []string)
}

// In is what a dialect gives the hook.
type In struct {
	Stdin []byte
	Env   []string // added to the hook's environment
	Skip  string   // not run: why, for the audit line
}

// Out is how the hook ended: the first judgeLimit bytes of each stream
// (truncated says more came) and its exit code (-N when killed by signal
// N). Stderr was also passed on to the agent as it came.
type Out struct {
	Stdout, Stderr []byte
	Truncated      bool
	Exit           int
}

// ScriptJudge is a dialect that decides which words the trust decision
// finds the script in (SPEC §4 on the hook as the dialect runs it), when
// they are not COMMAND's own.
type ScriptJudge interface {
	// ScriptArgv returns those words, and whether a script file is among
	// them (false: a pipeline of programs, approved as a command string).
	ScriptArgv(inv Invocation) (argv []string, file bool)
}

// dialects are the dialects the guard knows, by --dialect name: each makes
// the value for one run.
var dialects = map[string]func() Dialect{
	"claude": newClaudeDialect,
}

// RegisterDialect makes a dialect available to --dialect name (tests).
func RegisterDialect(name string, d func() Dialect) { dialects[name] = d }

// dialectOf is the invocation's dialect, nil for none.
func dialectOf(inv Invocation) (Dialect, error) {
	name, ok := inv.Extra["--dialect"]
	if !ok {
		return nil, nil
	}
	if d, ok := dialects[name]; ok {
		return d(), nil
	}
	known := make([]string, 0, len(dialects))
	for n := range dialects {
		known = append(known, n)
	}
	sort.Strings(known)
	return nil, fmt.Errorf("unknown --dialect %q (known: %s)", name, strings.Join(known, ", "))
}

// Judged is what the trust decision judges of a guarded hook: the argv it
// finds the script in (COMMAND, or what its dialect says), or, with
// noScript, none (the command string itself is what was approved). Used by
// the guard and by every command of hermes that judges a protected hook,
// so both judge the same file.
func Judged(inv Invocation) (argv []string, noScript bool) {
	if d, err := dialectOf(inv); err == nil && d != nil {
		if j, ok := d.(ScriptJudge); ok {
			argv, file := j.ScriptArgv(inv)
			return argv, !file
		}
	}
	return inv.Inner, false
}
