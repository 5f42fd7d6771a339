package code

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SimpleCommands lists the simple commands a bash command line can run,
// as Claude Code's `Bash(PATTERN)` rules are matched against them (SPEC
// §24 item 3): each in pipelines, lists, subshells, groups, compound
// commands and substitutions, its leading NAME=value assignments dropped,
// its words joined by one space. Each command is given as written (quotes
// kept) and, when every word is a plain literal, also with its quotes
// removed, so a quoted word cannot slip past a rule. ok is false when the
// line cannot be parsed.
func SimpleCommands(line string) (cmds []string, ok bool) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, false
	}
	f := newFinder(Env{})
	syntax.Walk(file, func(n syntax.Node) bool {
		call, isCall := n.(*syntax.CallExpr)
		if !isCall || len(call.Args) == 0 {
			return true
		}
		raw := make([]string, len(call.Args))
		lit := make([]string, len(call.Args))
		literal := true
		for i, a := range call.Args {
			w := f.wordOf(a, line)
			raw[i] = w.raw
			lit[i] = w.s
			literal = literal && w.ok
		}
		cmds = append(cmds, strings.Join(raw, " "))
		if literal {
			if l := strings.Join(lit, " "); l != cmds[len(cmds)-1] {
				cmds = append(cmds, l)
			}
		}
		return true
	})
	return cmds, true
}
