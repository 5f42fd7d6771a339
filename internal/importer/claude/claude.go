// Package claude translates the hooks of Claude Code settings files
// (settings.json) into Hermes shell hooks (SPEC §15, §19): each command
// hook becomes a hook the guard runs in the Claude Code dialect (or, raw,
// the command as written), with the events, matchers and failure policy
// translated, and a list of what was left out or weakened and why. It
// reads and returns; it prints and writes nothing.
package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	dialect "github.com/hermes-hooks/hermes/internal/dialect/claude"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Timeouts as the config reads them (SPEC §2.1).
const maxTimeout = 300

// Options say how hooks are written.
type Options struct {
	// Guard is the guard's path: each hook is written as
	// `<Guard> --event E … --dialect claude … -- <the hook>`.
	Guard string
	// Raw writes each command as it is (§15's plain import): the hook
	// then reads Hermes' payload and its Claude answers are not read.
	Raw bool
}

// A File is one settings file to import, with the project it belongs to
// ("" for the user's own settings): its hooks run only inside it.
type File struct {
	Path       string
	ProjectDir string
	Data       []byte
}

// Entry is one Claude Code command hook translated to a Hermes hook.
type Entry struct {
	Event      string
	Command    string // as written to the config
	Claude     string // the Claude command (or exec-form argv) as it was
	Matcher    string // "" for every tool
	Timeout    int    // 0: none given (the default applies)
	FailClosed bool
	ProjectDir string
	If         string
	Source     string // the settings file and the Claude event
	// Notes say what may not work as it did under Claude Code.
	Notes []string
	// Unseen names the Hermes tools that can do what the hook's if rule
	// or matcher guards but never fire it (SPEC §24 item 3); nil when
	// none.
	Unseen *dialect.Unseen
	rule   *dialect.Rule
}

// Skipped is something in a settings file that was not imported.
type Skipped struct {
	Source  string
	Command string // the hook's command; "" when the item is not one hook
	Reason  string
}

// Import translates the files, in order. disableAllHooks in any of them
// turns every hook off, as in Claude Code. Invalid JSON is an error;
// everything else odd is skipped with a reason. ctx ends the work early
// (an interrupt): its error is returned.
func Import(ctx context.Context, files []File, opts Options) ([]Entry, []Skipped, error) {
	type parsed struct {
		f    File
		root *pyjson.Object
	}
	var all []parsed
	disabledBy := ""
	for _, f := range files {
		v, err := pyjson.DecodeContext(ctx, f.Data)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		root, isObject := v.(*pyjson.Object)
		if err == nil && !isObject {
			err = fmt.Errorf("it is %s", pyjson.TypeName(v))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: not a JSON object: %w", f.Path, err)
		}
		if b, _ := root.Value("disableAllHooks").(bool); b && disabledBy == "" {
			disabledBy = f.Path
		}
		all = append(all, parsed{f, root})
	}
	var entries []Entry
	var skipped []Skipped
	// Claude Code runs identical hooks once, whichever files they are in.
	type key struct{ event, matcher, command, rule string }
	first := map[key]string{}
	for _, p := range all {
		e, s, err := parse(ctx, p.f, p.root, opts)
		if err != nil {
			return nil, nil, err
		}
		for _, x := range e {
			k := key{x.Event, x.Matcher, x.Claude, x.If}
			switch src, dup := first[k]; {
			case disabledBy != "":
				skipped = append(skipped, Skipped{x.Source, x.Claude, fmt.Sprintf("disableAllHooks is true in %s: Claude Code runs no hooks", disabledBy)})
			case dup:
				skipped = append(skipped, Skipped{x.Source, x.Claude, fmt.Sprintf("the same hook is imported from %s (Claude Code runs identical hooks once)", src)})
			default:
				first[k] = x.Source
				entries = append(entries, x)
			}
		}
		skipped = append(skipped, s...)
	}
	return entries, skipped, nil
}

// Parse reads one settings file's content (the user's own: no project).
func Parse(file string, data []byte) ([]Entry, []Skipped, error) {
	return Import(context.Background(), []File{{Path: file, Data: data}}, Options{Raw: true})
}

func parse(ctx context.Context, f File, root *pyjson.Object, opts Options) ([]Entry, []Skipped, error) {
	raw, ok := root.Get("hooks")
	if !ok || raw == nil {
		return nil, nil, nil
	}
	hooks, ok := raw.(*pyjson.Object)
	if !ok {
		return nil, []Skipped{{f.Path, "", "\"hooks\" is not an object"}}, nil
	}
	var entries []Entry
	var skipped []Skipped
	for _, m := range hooks.Members() {
		source := fmt.Sprintf("%s (%s)", f.Path, m.Key)
		event := dialect.HermesEvent(m.Key)
		groups, isList := m.Value.([]any)
		switch {
		case event == "":
			for _, c := range commandsOf(m.Value) {
				skipped = append(skipped, Skipped{source, c, fmt.Sprintf("Claude Code event %s has no Hermes counterpart", m.Key)})
			}
			continue
		case !isList:
			skipped = append(skipped, Skipped{source, "", "the event's value is not a list of matcher groups"})
			continue
		}
		for gi, g := range groups {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			group, ok := g.(*pyjson.Object)
			if !ok {
				skipped = append(skipped, Skipped{source, "", fmt.Sprintf("group %d is not an object", gi)})
				continue
			}
			list, _ := group.Value("hooks").([]any)
			claudeMatcher := group.Str("matcher")
			tm, reason := translateMatcher(m.Key, claudeMatcher)
			if reason != "" {
				for _, h := range list {
					skipped = append(skipped, Skipped{source, commandOf(h), reason})
				}
				continue
			}
			for _, h := range list {
				e, why := translateHook(h, m.Key, event, f, opts)
				if why != "" {
					skipped = append(skipped, Skipped{source, commandOf(h), why})
					continue
				}
				e.Matcher, e.Source = tm.Pattern, source
				e.Notes = append(append([]string(nil), tm.Notes...), e.Notes...)
				if event == "pre_tool_call" || event == "post_tool_call" {
					e.Unseen = dialect.UnseenBy(claudeMatcher, tm, e.rule)
				}
				entries = append(entries, e)
			}
		}
	}
	return entries, skipped, nil
}

// commandOf names a hook in the report: its command, or its exec-form
// argv, or its type.
func commandOf(h any) string {
	o, _ := h.(*pyjson.Object)
	if c := strings.TrimSpace(o.Str("command")); c != "" {
		if argv, ok := execArgs(o); ok {
			return dialect.Command(argv)
		}
		return c
	}
	if argv, ok := execArgs(o); ok {
		return dialect.Command(argv)
	}
	if u := o.Str("url"); u != "" {
		return u
	}
	return ""
}

func commandsOf(v any) []string {
	var out []string
	groups, _ := v.([]any)
	for _, g := range groups {
		l, _ := asObject(g).Value("hooks").([]any)
		for _, h := range l {
			out = append(out, commandOf(h))
		}
	}
	if len(out) == 0 {
		out = []string{""}
	}
	return out
}

func asObject(v any) *pyjson.Object { o, _ := v.(*pyjson.Object); return o }

// translateMatcher turns a Claude matcher into a Hermes one. reason is set
// when the group cannot be imported.
func translateMatcher(claudeEvent, m string) (matcher dialect.Matcher, reason string) {
	m = strings.TrimSpace(m)
	switch claudeEvent {
	case "PreToolUse", "PostToolUse":
		t, err := dialect.TranslateMatcher(m)
		if err != nil {
			return dialect.Matcher{}, err.Error()
		}
		return t, ""
	case "SessionStart", "SessionEnd":
		value := dialect.SessionStartSource
		if claudeEvent == "SessionEnd" {
			value = dialect.SessionEndReason
		}
		fires, ok := dialect.SessionMatcherFires(m, value)
		switch {
		case !ok:
			return dialect.Matcher{}, fmt.Sprintf("matcher %q cannot be evaluated", m)
		case !fires:
			return dialect.Matcher{}, fmt.Sprintf("matcher %q never matches in Hermes: its hooks see %q only", m, value)
		}
		return dialect.Matcher{}, ""
	case "SubagentStart", "SubagentStop":
		if m != "" && m != "*" {
			return dialect.Matcher{Notes: []string{fmt.Sprintf("matcher %q dropped: Hermes' %s has no matcher, so the hook runs for every subagent", m, dialect.HermesEvent(claudeEvent))}}, ""
		}
	}
	// UserPromptSubmit and Stop take no matcher in Claude Code either.
	return dialect.Matcher{}, ""
}

// execArgs is an exec-form hook's argv: its command (when given)
// followed by args, run without a shell.
func execArgs(o *pyjson.Object) ([]string, bool) {
	l, ok := o.Value("args").([]any)
	if !ok {
		return nil, false
	}
	var argv []string
	if c := strings.TrimSpace(o.Str("command")); c != "" {
		argv = append(argv, c)
	}
	for _, a := range l {
		s, ok := a.(string)
		if !ok {
			return nil, false
		}
		argv = append(argv, s)
	}
	return argv, len(argv) > 0
}

var projectDirRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$\{?CLAUDE_PROJECT_DIR\}?`) })

// shellSyntax finds what only a shell gives meaning to.
var shellSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("[|&;<>`]|\\$\\(") })

func translateHook(h any, claudeEvent, event string, f File, opts Options) (Entry, string) {
	o, ok := h.(*pyjson.Object)
	if !ok {
		return Entry{}, "a hook is not an object"
	}
	if t := o.Str("type"); t != "command" {
		return Entry{}, fmt.Sprintf("hook of type %q: only command hooks can become Hermes shell hooks", t)
	}
	e := Entry{Event: event, ProjectDir: f.ProjectDir}
	cmd := strings.TrimSpace(o.Str("command"))
	argv, exec := execArgs(o)
	var inner []string
	switch {
	case exec:
		if opts.Raw {
			return Entry{}, "an exec-form hook (args) cannot be imported raw; import it without --raw"
		}
		for i := range argv {
			if f.ProjectDir != "" {
				argv[i] = dialect.ReplaceProjectDir(argv[i], f.ProjectDir)
			}
		}
		inner = argv
		e.Claude = dialect.Command(argv)
	case cmd == "":
		return Entry{}, "command hook without a command"
	default:
		if _, err := shell.Split(cmd); err != nil && opts.Raw {
			return Entry{}, fmt.Sprintf("command %q cannot be parsed: %v", cmd, err)
		}
		e.Claude = cmd
		if !opts.Raw {
			var ok bool
			if cmd, ok = unbrace(cmd); !ok {
				return Entry{}, "the command writes ${CLAUDE_PROJECT_DIR} before a letter, digit or _, which the agent would expand (to nothing) when it reads the config; write \"$CLAUDE_PROJECT_DIR\"… in the settings file"
			}
		}
		inner = dialect.ShellArgv(cmd)
	}
	tool := claudeEvent == "PreToolUse" || claudeEvent == "PostToolUse"
	if rule := strings.TrimSpace(o.Str("if")); rule != "" {
		if !tool {
			return Entry{}, fmt.Sprintf("if rule %q: Claude Code applies if rules to tool events only", rule)
		}
		r, err := dialect.ParseRule(rule)
		if err != nil {
			return Entry{}, err.Error()
		}
		if opts.Raw {
			return Entry{}, fmt.Sprintf("if rule %q is evaluated by the guard; import it without --raw", rule)
		}
		if r.NeedsProject() && f.ProjectDir == "" {
			e.Notes = append(e.Notes, fmt.Sprintf("if rule %q is relative to the project; a user hook takes the working directory as the project", rule))
		}
		e.If, e.rule = r.Text, &r
	}
	switch o.Str("onFailure") {
	case "block":
		if event == "pre_tool_call" {
			e.FailClosed = true
		} else {
			e.Notes = append(e.Notes, fmt.Sprintf("onFailure \"block\" dropped: Hermes fails closed on pre_tool_call only, so a crash of this %s hook lets the agent go on", claudeEvent))
		}
	case "", "continue", "allow":
	default:
		e.Notes = append(e.Notes, fmt.Sprintf("onFailure %q is not known; a crash lets the agent go on", o.Str("onFailure")))
	}
	if b, _ := o.Value("async").(bool); b {
		e.Notes = append(e.Notes, "async: Hermes runs the hook and waits for it")
	}
	if t, ok := o.Value("timeout").(json.Number); ok {
		fl, err := t.Float64()
		switch {
		case err != nil || math.IsNaN(fl):
		case fl < 1:
			e.Notes = append(e.Notes, fmt.Sprintf("timeout %s is below 1 second: the default (60) applies", t))
		case fl > maxTimeout:
			e.Timeout = maxTimeout
			e.Notes = append(e.Notes, fmt.Sprintf("timeout %s clamped to the maximum of %d seconds", t, maxTimeout))
		default:
			e.Timeout = int(fl)
		}
	}
	if opts.Raw {
		return rawEntry(e, cmd, claudeEvent)
	}
	if f.ProjectDir == "" && !exec {
		if orig, err := shell.Split(cmd); err == nil && scriptUsesProjectDir(orig) {
			return Entry{}, "a user hook whose script is under $CLAUDE_PROJECT_DIR runs a different script in each project, which no approval can pin; copy it into each project's .claude/settings.json"
		}
	}
	if !exec {
		if words, ok := dialect.ScriptWords(inner, f.ProjectDir); !ok || !dialect.HasScriptFile(words) {
			e.Notes = append(e.Notes, "no script file: what is approved is the command itself")
		}
	}
	if claudeEvent == "SessionStart" {
		e.Notes = append(e.Notes, "Hermes' on_session_start fires for new sessions only (source \"startup\")")
	}
	e.Command = dialect.Command(dialect.Wrap{Guard: opts.Guard, Event: event, FailClosed: e.FailClosed, ProjectDir: f.ProjectDir, If: e.If}.Argv(inner))
	return e, ""
}

// unbrace writes ${CLAUDE_PROJECT_DIR} as $CLAUDE_PROJECT_DIR, which sh
// reads the same: the agent expands ${VAR} in config values itself (from
// its own environment, where CLAUDE_PROJECT_DIR is not set), so the braced
// form would reach the hook empty. ok is false where the braces are needed
// (a name character follows).
func unbrace(cmd string) (string, bool) {
	const braced = "${CLAUDE_PROJECT_DIR}"
	var b strings.Builder
	for {
		i := strings.Index(cmd, braced)
		if i < 0 {
			b.WriteString(cmd)
			return b.String(), true
		}
		rest := cmd[i+len(braced):]
		if rest != "" && (rest[0] == '_' || 'a' <= rest[0] && rest[0] <= 'z' || 'A' <= rest[0] && rest[0] <= 'Z' || '0' <= rest[0] && rest[0] <= '9') {
			return "", false
		}
		b.WriteString(cmd[:i] + "$CLAUDE_PROJECT_DIR")
		cmd = rest
	}
}

// scriptUsesProjectDir: §4's script word of the unsubstituted command
// names CLAUDE_PROJECT_DIR.
func scriptUsesProjectDir(words []string) bool {
	w, file := dialect.ScriptWord(words)
	return file && dialect.UsesProjectDir(w)
}

// rawEntry is §15's plain import: the command as written, with notes on
// what Hermes does differently.
func rawEntry(e Entry, cmd, claudeEvent string) (Entry, string) {
	e.Command = cmd
	if e.ProjectDir != "" {
		e.Notes = append(e.Notes, "raw: the hook runs in every directory, not only in "+e.ProjectDir)
	}
	if projectDirRe().MatchString(cmd) {
		e.Notes = append(e.Notes, "the command uses $CLAUDE_PROJECT_DIR, which Hermes does not set: replace it with the project's path")
	}
	if rest := projectDirRe().ReplaceAllString(cmd, ""); shellSyntax().MatchString(rest) || strings.Contains(rest, "$") {
		e.Notes = append(e.Notes, "Claude Code runs commands through a shell and Hermes does not (no pipes, redirections or $variables): wrap it as sh -c '...' or move it into a script")
	}
	if n, ok := rawNotes[claudeEvent]; ok {
		e.Notes = append(e.Notes, n)
	}
	return e, ""
}

// rawNotes say how an event's answers differ between Claude Code and
// Hermes, for hooks imported raw.
var rawNotes = map[string]string{
	"UserPromptSubmit": "Claude Code adds a hook's plain stdout (or hookSpecificOutput.additionalContext) as context; Hermes needs {\"context\": \"...\"} on stdout",
	"SessionStart":     "Claude Code adds a SessionStart hook's stdout as context; Hermes needs {\"context\": \"...\"} on stdout",
	"PreToolUse":       "Hermes blocks on exit code 2, {\"decision\": \"block\"} or {\"action\": \"block\"}; Claude Code's hookSpecificOutput.permissionDecision is not read",
	"Stop":             "Hermes' pre_verify goes on with {\"action\": \"continue\", \"message\": ...}; Claude Code's decision: block is not read",
}
