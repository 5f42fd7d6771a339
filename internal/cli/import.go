package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/importer/claude"
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
	f      *Factory
	Files  []string
	DryRun bool
	JSON   bool
}

func newCmdImportClaude(f *Factory, runF func(*importClaudeOptions) error) *cobra.Command {
	opts := &importClaudeOptions{f: f}
	cmd := &cobra.Command{
		Use:   "claude [FILE...]",
		Short: "Import the command hooks of Claude Code settings files",
		Long: `Add the command hooks of Claude Code settings files to the config file.
Default files, those that exist: ~/.claude/settings.json, ./.claude/settings.json,
./.claude/settings.local.json.

Events: PreToolUse → pre_tool_call, PostToolUse → post_tool_call,
UserPromptSubmit → pre_llm_call, SessionStart → on_session_start,
SessionEnd → on_session_end, SubagentStop → subagent_stop. Tool names in
matchers: Bash → terminal, Write → write_file, Edit and MultiEdit → patch,
Read → read_file, WebFetch → web_extract, Task → delegate_task.
Other events, hooks that are not commands and tools with no Hermes
counterpart are listed as not imported, with the reason. Hooks already in
the config are not added twice. Nothing is approved.`,
		Example: `  hermes hooks import claude --dry-run
  hermes hooks import claude ~/work/app/.claude/settings.json --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			if runF != nil {
				return runF(opts)
			}
			return importClaudeRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

type importedJSON struct {
	Event   string   `json:"event"`
	Command string   `json:"command"`
	Matcher *string  `json:"matcher"`
	Timeout *int     `json:"timeout"`
	Source  string   `json:"source"`
	Notes   []string `json:"notes"`
}

type skippedJSON struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

type importJSON struct {
	editJSON
	Imported []importedJSON `json:"imported"`
	Skipped  []skippedJSON  `json:"skipped"`
}

// claudeSettingsFiles are the default settings files that exist, each once.
func claudeSettingsFiles(f *Factory) []string {
	cwd, _ := os.Getwd()
	var out []string
	seen := map[string]bool{}
	for _, p := range []string{
		filepath.Join(f.UserHome(), ".claude", "settings.json"),
		filepath.Join(cwd, ".claude", "settings.json"),
		filepath.Join(cwd, ".claude", "settings.local.json"),
	} {
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

func importClaudeRun(cmd *cobra.Command, opts *importClaudeOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	files := opts.Files
	if len(files) == 0 {
		if files = claudeSettingsFiles(opts.f); len(files) == 0 {
			return usageErrorf("no Claude Code settings found (looked at ~/.claude/settings.json, ./.claude/settings.json, ./.claude/settings.local.json); name the file to import")
		}
	}
	var entries []claude.Entry
	var skipped []claude.Skipped
	for _, file := range files {
		data, _, err := edit.ReadFile(file)
		if err == nil {
			if _, statErr := os.Stat(file); statErr != nil {
				err = statErr
			}
		}
		if err != nil {
			return usageErrorf("cannot read Claude Code settings %s: %v", file, err)
		}
		e, sk, err := claude.Parse(file, data)
		if err != nil {
			return usageErrorf("%v", err)
		}
		entries = append(entries, e...)
		skipped = append(skipped, sk...)
	}

	var added []claude.Entry
	var present []claude.Skipped
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		added, present = nil, nil
		cur := old
		for _, e := range entries {
			next, err := hooks.AddToConfig(cur, hooks.NewHook{Event: e.Event, Command: e.Command, Matcher: e.Matcher, Timeout: e.Timeout}, configEnv(s))
			if errors.Is(err, hooks.ErrAlreadyConfigured) {
				present = append(present, claude.Skipped{Source: e.Source, Reason: fmt.Sprintf("%s %q is already in the config", e.Event, e.Command)})
				continue
			}
			if err != nil {
				return nil, err
			}
			cur = next
			added = append(added, e)
		}
		return cur, nil
	})
	if err != nil {
		return err
	}
	if len(added) == 0 {
		res.Changed, res.Diff = false, ""
	}
	skipped = append(skipped, present...)

	if opts.JSON {
		out := importJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff}, Imported: []importedJSON{}, Skipped: []skippedJSON{}}
		if opts.DryRun && s.Loc.ConfigPath == "" && res.Changed {
			out.ConfigPath = &res.Path
		}
		for _, e := range added {
			j := importedJSON{Event: e.Event, Command: e.Command, Matcher: nullableString(e.Matcher), Source: e.Source, Notes: e.Notes}
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
			out.Skipped = append(out.Skipped, skippedJSON(sk))
		}
		return writeJSON(ios.Out, out)
	}

	w := ios.Out
	if opts.DryRun {
		w = ios.ErrOut
		fmt.Fprint(ios.Out, sanitizeDiff(res.Diff))
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
	fmt.Fprintf(w, "%s %d hook(s) from %d file(s):\n", verb, len(added), len(files))
	for _, e := range added {
		m := ""
		if e.Matcher != "" {
			m = "  matcher " + e.Matcher
		}
		fmt.Fprintf(w, "  %s %s  %s%s  (from %s)\n", cs.SuccessIcon(), esc(e.Event), esc(e.Command), esc(m), esc(e.Source))
		for _, n := range e.Notes {
			fmt.Fprintf(w, "      %s %s\n", cs.WarningIcon(), esc(n))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "Not imported (%d):\n", len(skipped))
		for _, sk := range skipped {
			fmt.Fprintf(w, "  %s %s: %s\n", cs.FailureIcon(), esc(sk.Source), esc(sk.Reason))
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
