package guard

import (
	"os"
	"strings"

	dialect "github.com/hermes-hooks/hermes/internal/dialect/claude"
)

// claudeDialect runs a Claude Code hook (SPEC §19) through the tables and
// the two functions of package dialect/claude; it only calls them.
type claudeDialect struct {
	call *dialect.Call
	rule *dialect.Rule
}

func newClaudeDialect() Dialect { return &claudeDialect{} }

func (c *claudeDialect) projectDir(inv Invocation) string { return inv.Extra["--project-dir"] }

func (c *claudeDialect) ScriptArgv(inv Invocation) ([]string, bool) {
	words, ok := dialect.ScriptWords(inv.Inner, c.projectDir(inv))
	if !ok {
		return inv.Inner, true
	}
	return words, dialect.HasScriptFile(words)
}

func (c *claudeDialect) Input(inv Invocation, payload []byte) (In, error) {
	call, stdin, err := dialect.Input(inv.Event, payload)
	if err != nil {
		return In{}, err
	}
	c.call = call
	project := c.projectDir(inv)
	if !dialect.Inside(call.Cwd, project) {
		return In{Skip: "outside project"}, nil
	}
	if text, ok := inv.Extra["--if"]; ok {
		r, err := dialect.ParseRule(text)
		if err != nil {
			return In{}, err
		}
		c.rule = &r
		if !r.Match(call, project, os.Getenv("HOME")) {
			return In{Skip: "if " + r.Text + " does not match"}, nil
		}
	}
	cwd := call.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	return In{Stdin: stdin, Env: dialect.Env(project, cwd)}, nil
}

func (c *claudeDialect) Answer(inv Invocation, out Out) ([]byte, int, []string) {
	r := dialect.Run{Stdout: out.Stdout, Stderr: out.Stderr, Exit: out.Exit,
		FailClosed: inv.FailClosed, Command: strings.Join(inv.Inner, " ")}
	if cmd, ok := dialect.ClaudeCommand(inv.Inner); ok {
		r.Command = cmd
	}
	if out.Exit < 0 {
		r.Failed, r.Reason = true, "killed by a signal"
	}
	rep := dialect.Answer(c.call, r)
	return rep.Stdout, rep.Exit, rep.Warnings
}

// DialectCommand is the command a dialect hook was written as in the other
// tool (a Claude Code command hook's command), ok false for other hooks:
// hermes takes it to name the hook too.
func DialectCommand(inv Invocation) (string, bool) {
	if inv.Extra["--dialect"] != "claude" {
		return "", false
	}
	return dialect.ClaudeCommand(inv.Inner)
}
