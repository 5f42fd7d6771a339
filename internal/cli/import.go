package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes/internal/config/edit"
	dialect "github.com/hermes-hooks/hermes/internal/dialect/claude"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/importer/claude"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/spf13/cobra"
)

func newCmdImport(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Bring hooks over from another tool's settings",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newCmdImportClaude(f, nil))
	return cmd
}

type importClaudeOptions struct {
	f   *Factory
	cmd *cobra.Command
	// Guard finds the guard the hooks are written to run through.
	Guard  func() (string, error)
	Files  []string
	DryRun bool
	JSON   bool
	Raw    bool
}

func newCmdImportClaude(f *Factory, runF func(*importClaudeOptions) error) *cobra.Command {
	opts := &importClaudeOptions{f: f, Guard: guardPath}
	cmd := &cobra.Command{
		Use:   "claude [FILE...]",
		Short: "Import the command hooks of Claude Code settings files",
		Long: `Add the command hooks of Claude Code settings files to the config file.
Default files, those that exist: ~/.claude/settings.json, and
.claude/settings.json and .claude/settings.local.json in the current
directory and at the root of its git repository.

Each hook is written protected, run by the guard in the Claude Code dialect
(--dialect claude): the hook reads the input Claude Code would give it
(Claude's event, tool and field names, CLAUDE_PROJECT_DIR) and its answers
(exit 2, permissionDecision, updatedInput, additionalContext, decision,
continue) are read as Claude Code reads them. A project's hooks run only
inside that project. --raw writes the commands as they are instead.

Events: PreToolUse → pre_tool_call, PostToolUse → post_tool_call,
UserPromptSubmit → pre_llm_call, SessionStart → on_session_start,
SessionEnd → on_session_end, Stop → pre_verify, SubagentStart →
subagent_start, SubagentStop → subagent_stop. Matchers are translated with
Claude Code's rules (see docs/claude.md). disableAllHooks is honoured.
Other events, hooks that are not commands, tools with no Hermes
counterpart and if rules that cannot be evaluated are listed as not
imported, each with its command and the reason. Each tool hook whose if
rule or matcher leaves out Hermes tools that can do what it guards
(terminal and execute_code can change files too) gets a line naming them.
Hooks already in the
config are not added twice. Nothing is approved.`,
		Example: `  hermes hooks import claude --dry-run
  hermes hooks import claude ~/work/app/.claude/settings.json --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files, opts.cmd = args, cmd
			if runF != nil {
				return runF(opts)
			}
			return importClaudeRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	fl.BoolVar(&opts.Raw, "raw", false, "write each command as it is, not run by the guard in the Claude Code dialect")
	return cmd
}

type importedJSON struct {
	Event         string   `json:"event"`
	Command       string   `json:"command"`
	ClaudeCommand string   `json:"claude_command"`
	Protected     bool     `json:"protected"`
	Matcher       *string  `json:"matcher"`
	Timeout       *int     `json:"timeout"`
	FailClosed    bool     `json:"fail_closed"`
	ProjectDir    *string  `json:"project_dir"`
	If            *string  `json:"if"`
	Source        string   `json:"source"`
	Notes         []string `json:"notes"`
	// Unseen: the Hermes tools that can do what the hook's if rule or
	// matcher guards but never fire it (SPEC §24 item 3).
	Unseen *unseenJSON `json:"unseen"`
}

type unseenJSON struct {
	Guard   string            `json:"guard"`
	Tools   []string          `json:"tools"`
	Groups  []unseenGroupJSON `json:"groups"`
	Message string            `json:"message"`
}

type unseenGroupJSON struct {
	Can   []string `json:"can"`
	Tools []string `json:"tools"`
}

func unseenOut(u *dialect.Unseen) *unseenJSON {
	if u == nil {
		return nil
	}
	j := &unseenJSON{Guard: u.Guard, Tools: u.Tools(), Groups: []unseenGroupJSON{}, Message: u.String()}
	for _, g := range u.Groups {
		j.Groups = append(j.Groups, unseenGroupJSON{Can: g.Can.Words(), Tools: g.Tools})
	}
	return j
}

type skippedJSON struct {
	Source  string  `json:"source"`
	Command *string `json:"command"`
	Reason  string  `json:"reason"`
}

type importJSON struct {
	editJSON
	Imported []importedJSON `json:"imported"`
	Skipped  []skippedJSON  `json:"skipped"`
}

// claudeSettingsFiles are the default settings files that exist, each once:
// the user's, then the project's in the current directory and at the root
// of its git repository.
func claudeSettingsFiles(f *Factory) []string {
	cwd, _ := os.Getwd()
	dirs := []string{cwd}
	if root := gitRoot(cwd); root != "" && root != cwd {
		dirs = append(dirs, root)
	}
	cands := []string{filepath.Join(f.UserHome(), ".claude", "settings.json")}
	for _, d := range dirs {
		cands = append(cands, filepath.Join(d, ".claude", "settings.json"), filepath.Join(d, ".claude", "settings.local.json"))
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range cands {
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] {
			continue
		}
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[real] = true
		out = append(out, p)
	}
	return out
}

// gitRoot is the folder holding the .git of dir's repository, "" when none.
func gitRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// claudeProjectDir is the project a settings file belongs to: the folder
// holding its .claude folder, unless that is the user's home (the user's
// own settings belong to no project).
func claudeProjectDir(file, home string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		return ""
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) != ".claude" {
		return ""
	}
	project := filepath.Dir(dir)
	if h, err := filepath.Abs(home); err == nil && (project == h || sameFile(project, h)) {
		return ""
	}
	// The physical path: the agent reports the working folder with its
	// symlinks resolved (SPEC §24 item 2).
	if real, err := filepath.EvalSymlinks(project); err == nil {
		project = real
	}
	return project
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func importClaudeRun(cmd *cobra.Command, opts *importClaudeOptions) error {
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	paths := opts.Files
	if len(paths) == 0 {
		if paths = claudeSettingsFiles(opts.f); len(paths) == 0 {
			return usageErrorf("no Claude Code settings found (looked at ~/.claude/settings.json, and .claude/settings.json and .claude/settings.local.json here and at the git repository's root); name the file to import")
		}
	}
	var files []claude.File
	for _, file := range paths {
		data, _, err := edit.ReadFile(file)
		if err == nil {
			if _, statErr := os.Stat(file); statErr != nil {
				err = statErr
			}
		}
		if err != nil {
			return usageErrorf("cannot read Claude Code settings %s: %v", file, err)
		}
		files = append(files, claude.File{Path: file, ProjectDir: claudeProjectDir(file, opts.f.UserHome()), Data: data})
	}
	var guardAt string
	if !opts.Raw {
		if guardAt, err = opts.Guard(); err != nil {
			return err
		}
	}
	entries, skipped, err := claude.Import(ctx, files, claude.Options{Guard: guardAt, Raw: opts.Raw})
	if err != nil {
		if ctx.Err() != nil {
			return CancelError
		}
		return usageErrorf("%v", err)
	}

	var added []claude.Entry
	var present []claude.Skipped
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		added, present = nil, nil
		hs := make([]hookspec.NewHook, len(entries))
		for i, e := range entries {
			hs[i] = hookspec.NewHook{Event: e.Event, Command: e.Command, Matcher: e.Matcher, Timeout: e.Timeout, FailClosed: e.FailClosed}
		}
		out, errs, err := hookspec.AddAllToConfig(ctx, old, hs, configEnv(s))
		if err != nil {
			return nil, err
		}
		for i, e := range entries {
			if errs[i] != nil {
				present = append(present, claude.Skipped{Source: e.Source, Command: e.Claude, Reason: fmt.Sprintf("%s %q is already in the config", e.Event, e.Command)})
				continue
			}
			added = append(added, e)
		}
		// An interrupt before the file is replaced writes nothing.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return out, nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return CancelError
		}
		return err
	}
	if len(added) == 0 {
		res.Changed = false
	}
	skipped = append(skipped, present...)

	if opts.JSON {
		out := importJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, Imported: []importedJSON{}, Skipped: []skippedJSON{}}
		if opts.DryRun && s.Loc.ConfigPath == "" && res.Changed {
			out.ConfigPath = &res.Path
		}
		for _, e := range added {
			j := importedJSON{Event: e.Event, Command: e.Command, ClaudeCommand: e.Claude, Protected: !opts.Raw,
				Matcher: pyjson.NullIfEmpty(e.Matcher), FailClosed: e.FailClosed, ProjectDir: pyjson.NullIfEmpty(e.ProjectDir),
				If: pyjson.NullIfEmpty(e.If), Source: e.Source, Notes: e.Notes, Unseen: unseenOut(e.Unseen)}
			if e.Timeout > 0 {
				t := e.Timeout
				j.Timeout = &t
			}
			if j.Notes == nil {
				j.Notes = []string{}
			}
			out.Imported = append(out.Imported, j)
		}
		for _, sk := range skipped {
			out.Skipped = append(out.Skipped, skippedJSON{Source: sk.Source, Command: pyjson.NullIfEmpty(sk.Command), Reason: sk.Reason})
		}
		return writeJSON(ios.Out, out)
	}

	w := ios.Out
	if opts.DryRun {
		w = ios.ErrOut
		fmt.Fprint(ios.Out, sanitizeDiff(res.Diff()))
	} else {
		printLocation(w, s.Loc)
		fmt.Fprintln(w)
	}
	cs := ios.Colors()
	if opts.DryRun {
		cs = ios.ErrColors()
	}
	verb := "Imported"
	if opts.DryRun {
		verb = "Would import"
	}
	how := ", protected, in the Claude Code dialect"
	if opts.Raw {
		how = ", raw"
	}
	fmt.Fprintf(w, "%s %d hook(s) from %d file(s)%s:\n", verb, len(added), len(files), how)
	for _, e := range added {
		m := ""
		if e.Matcher != "" {
			m = "  matcher " + e.Matcher
		}
		extra := ""
		if e.If != "" {
			extra += "  if " + e.If
		}
		if e.FailClosed {
			extra += "  fail-closed"
		}
		if e.ProjectDir != "" && !opts.Raw {
			extra += "  in " + e.ProjectDir
		}
		fmt.Fprintf(w, "  %s %s  %s%s%s  (from %s)\n", cs.SuccessIcon(), esc(e.Event), escCmd(e.Claude), esc(m), esc(extra), esc(e.Source))
		for _, n := range e.Notes {
			fmt.Fprintf(w, "      %s %s\n", cs.WarningIcon(), esc(n))
		}
	}
	var unseen []claude.Entry
	for _, e := range added {
		if e.Unseen != nil {
			unseen = append(unseen, e)
		}
	}
	if len(unseen) > 0 {
		// One line per hook, by its command: what its rule lets through.
		fmt.Fprintf(w, "Tools these hooks never see (%d):\n", len(unseen))
		for _, e := range unseen {
			fmt.Fprintf(w, "  %s %s: %s\n", cs.WarningIcon(), esc(e.Claude), esc(e.Unseen.String()))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "Not imported (%d):\n", len(skipped))
		for _, sk := range skipped {
			c := ""
			if sk.Command != "" {
				c = " " + sk.Command
			}
			fmt.Fprintf(w, "  %s %s:%s: %s\n", cs.FailureIcon(), esc(sk.Source), escCmd(c), esc(sk.Reason))
		}
	}
	if len(added) > 0 && !opts.DryRun {
		fmt.Fprintf(w, "Added to %s. Nothing was approved: read each script, then run 'hermes hooks accept'.\n", esc(res.Path))
	}
	if opts.DryRun {
		fmt.Fprintln(w, "Dry run: nothing was written.")
	}
	return nil
}
