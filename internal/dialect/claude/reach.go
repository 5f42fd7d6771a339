package claude

import (
	"regexp"
	"strings"
)

// An Ability is something a tool call can do to the machine, which a
// hook on a Claude Code tool guards: Bash runs commands, Edit changes
// files. Hermes has tools that can do the same through other means
// (terminal's `sed -i`, execute_code's Python), and a hook whose matcher
// or `if` rule names one tool never sees the others (SPEC §24 item 3).
type Ability uint8

const (
	RunCommands Ability = 1 << iota
	ChangeFiles
	ReadFiles
	FetchURLs
)

// abilityWords name each ability in a sentence, in the order they are
// listed.
var abilityWords = []struct {
	a    Ability
	word string
}{
	{RunCommands, "run commands"},
	{ChangeFiles, "change files"},
	{ReadFiles, "read files"},
	{FetchURLs, "fetch URLs"},
}

// Words are the ability's names, in table order ("run commands", "change
// files").
func (a Ability) Words() []string {
	var out []string
	for _, w := range abilityWords {
		if a&w.a != 0 {
			out = append(out, w.word)
		}
	}
	return out
}

// String is the abilities joined for a sentence: "run commands and
// change files".
func (a Ability) String() string { return joinAnd(a.Words()) }

// A Reach is a Hermes tool and what it can do. The table is read from the
// agent's tool schemas (../shared/hermes-tools.json; internal/catalog/tools). It keeps to tools
// that can do these things at will, anywhere: skill_manage writes only
// inside a skill's folder, memory only its own files, skill_view reads
// only a skill's files, vision_analyze only images, text_to_speech writes
// audio, and send_message (MEDIA:<path>) is gone from current builds, so
// none of them is here. process_manage runs commands by writing them to a
// background shell's stdin, cronjob_manage by scheduling a script (what
// those commands then do to files is the commands' doing, and is not
// claimed for them here). delegate_task is left out: its subagents' calls
// are tool calls of their own.
type Reach struct {
	Hermes string
	Can    Ability
}

// Reaches is the table, in the order tools are named in a report: the
// tool a hook is most likely to miss first.
var Reaches = []Reach{
	{Hermes: "terminal", Can: RunCommands | ChangeFiles | ReadFiles | FetchURLs},
	{Hermes: "execute_code", Can: RunCommands | ChangeFiles | ReadFiles | FetchURLs},
	{Hermes: "process_manage", Can: RunCommands},
	{Hermes: "cronjob_manage", Can: RunCommands},
	{Hermes: "write_file", Can: ChangeFiles},
	{Hermes: "patch", Can: ChangeFiles},
	{Hermes: "read_file", Can: ReadFiles},
	{Hermes: "search_files", Can: ReadFiles},
	{Hermes: "web_extract", Can: FetchURLs},
	{Hermes: "browser_navigate", Can: FetchURLs},
}

// Guards says what a hook on a Claude Code tool stands guard over: the
// ability that tool is the way to in Claude Code. Tools not here (Glob
// and LS list names, Task delegates, TodoWrite keeps a list) guard none
// of the table's abilities.
var Guards = map[string]Ability{
	"Bash":         RunCommands,
	"Edit":         ChangeFiles,
	"MultiEdit":    ChangeFiles,
	"Write":        ChangeFiles,
	"NotebookEdit": ChangeFiles,
	"Read":         ReadFiles,
	"NotebookRead": ReadFiles,
	"Grep":         ReadFiles,
	"WebFetch":     FetchURLs,
}

// An Unseen says which Hermes tools can do what a hook guards but never
// fire it: the import reports it with the hook's command.
type Unseen struct {
	// Guard names what limits the hook: its if rule ("Edit(*.env)") or
	// its matcher ("matcher Bash").
	Guard string
	// Groups are the tools, grouped by what they can do of what the hook
	// guards, in the table's order.
	Groups []UnseenGroup
}

// An UnseenGroup is tools that can do the same part of what a hook
// guards.
type UnseenGroup struct {
	Can   Ability
	Tools []string
}

// Tools are every tool of the groups, in order.
func (u *Unseen) Tools() []string {
	var out []string
	for _, g := range u.Groups {
		out = append(out, g.Tools...)
	}
	return out
}

// String is the report's sentence: `Edit(*.env) never sees terminal,
// execute_code (they can change files too)`.
func (u *Unseen) String() string {
	var parts []string
	for _, g := range u.Groups {
		pron := "they"
		if len(g.Tools) == 1 {
			pron = "it"
		}
		parts = append(parts, strings.Join(g.Tools, ", ")+" ("+pron+" can "+g.Can.String()+" too)")
	}
	return u.Guard + " never sees " + strings.Join(parts, "; ")
}

// UnseenBy works out what a tool hook never sees. claudeMatcher is the
// group's matcher as written in the settings file, m its translation and
// rule the hook's if rule (nil when none). It is nil when the hook guards
// none of the table's abilities or sees every tool that has them.
//
// What the hook guards is its rule's tool's ability when it has a rule,
// else that of every Claude Code tool its matcher names. What it sees is
// the Hermes tools its matcher fires on that its rule can match.
func UnseenBy(claudeMatcher string, m Matcher, rule *Rule) *Unseen {
	var guards Ability
	var guard string
	switch {
	case rule != nil:
		guards, guard = Guards[rule.Tool], rule.Text
	case m.Pattern != "":
		for _, n := range m.Claude {
			guards |= Guards[n]
		}
		guard = "matcher " + strings.TrimSpace(claudeMatcher)
	}
	if guards == 0 {
		return nil
	}
	var fires *regexp.Regexp
	if m.Pattern != "" {
		// The agent's fullmatch; a translated matcher is names and
		// mcp_… patterns, which Go reads as Python does.
		fires = regexp.MustCompile(`^(?:` + m.Pattern + `)$`)
	}
	var ruleSees []string
	if rule != nil {
		ruleSees = rule.HermesTools()
	}
	u := &Unseen{Guard: guard}
	for _, r := range Reaches {
		can := r.Can & guards
		if can == 0 {
			continue
		}
		seen := (fires == nil || fires.MatchString(r.Hermes)) && (rule == nil || contains(ruleSees, r.Hermes))
		if seen {
			continue
		}
		u.add(can, r.Hermes)
	}
	if len(u.Groups) == 0 {
		return nil
	}
	return u
}

func (u *Unseen) add(can Ability, tool string) {
	for i := range u.Groups {
		if u.Groups[i].Can == can {
			u.Groups[i].Tools = append(u.Groups[i].Tools, tool)
			return
		}
	}
	u.Groups = append(u.Groups, UnseenGroup{Can: can, Tools: []string{tool}})
}

// joinAnd writes a, b and c.
func joinAnd(l []string) string {
	switch len(l) {
	case 0:
		return ""
	case 1:
		return l[0]
	}
	return strings.Join(l[:len(l)-1], ", ") + " and " + l[len(l)-1]
}
