package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/lockfile"
	"github.com/hermes-hooks/hermes/internal/scan"
)

type scanOptions struct {
	f         *Factory
	Dir       string
	Lock      string
	WriteLock string
	JSON      bool
}

func newCmdScan(f *Factory, runF func(*scanOptions) error) *cobra.Command {
	opts := &scanOptions{f: f}
	cmd := &cobra.Command{
		Use:   "scan [DIR]",
		Short: "List the hooks a checkout makes coding agents run, without running them",
		Long: `List every hook a coding agent would run by itself because of a file in a
checkout (DIR; default: the current git repository's root, else the current
folder), without running anything:

  Hermes        config.yaml with hooks:, hooks/*/HOOK.yaml
  Claude Code   .claude/settings.json, .claude/settings.local.json
  Codex         .codex/hooks.json, [hooks] in .codex/config.toml
  Cursor        .cursor/hooks.json
  Antigravity   .agents/hooks.json, .agent/hooks.json
  Gemini CLI    .gemini/settings.json (legacy, Antigravity's predecessor)
  Copilot       .github/hooks/*.json
  Cline         .clinerules/hooks/* (executables named after their event)
  Kiro          .kiro/hooks/*.kiro.hook, .kiro/hooks/*.json
  git           core.hooksPath and core.fsmonitor in .git/config,
                .githooks/, .husky/

Each hook is shown with its file and line, event, matcher, command, its code
(files inside DIR pinned by sha256, system files by ownership) and findings:
a whole file an agent ignores (a parse error; for Cursor one unknown event
name, for Antigravity any error), code from outside the checkout, code that
is downloaded and run (curl … | sh, npx -y, uvx, pip install), network use,
and hooks that run when a session starts.

--write-lock FILE records the hooks and their code's hashes (the scan section
of a hooks.lock.json); --lock FILE compares with it in both directions and
lists new, changed and removed hooks first.

Exit status 1 when anything is new, changed or removed against the lock, or
a finding is "downloads and runs" or a whole file ignored; else 0.`,
		Example: `  hermes hooks scan
  hermes hooks scan ~/src/cloned-repo
  hermes hooks scan --write-lock hooks.lock.json
  hermes hooks scan --lock hooks.lock.json      # in CI
  hermes hooks scan --json | jq '.findings[]'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErrorf("%s takes at most one folder (got %q)", cmd.CommandPath(), args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Dir = args[0]
			}
			if opts.Lock != "" && opts.WriteLock != "" {
				return usageErrorf("--lock and --write-lock cannot be used together; give one")
			}
			if runF != nil {
				return runF(opts)
			}
			return scanRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Lock, "lock", "", "compare with the scan section of the lock `FILE`")
	fl.StringVar(&opts.WriteLock, "write-lock", "", "write the hooks found to the lock `FILE` (its scan section)")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

// scanJSON is `scan --json` (docs/json.md).
type scanJSON struct {
	Dir      string                `json:"dir"`
	Hooks    []scan.Hook           `json:"hooks"`
	Findings []scan.Finding        `json:"findings"`
	Changed  []lockfile.Difference `json:"changed"`
}

func scanRun(opts *scanOptions) error {
	ios := opts.f.IO
	dir := opts.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		dir = scan.Root(wd)
	}
	res, err := scan.Scan(dir, scan.Options{})
	if err != nil {
		return usageErrorf("%v", err)
	}
	changed := []lockfile.Difference{}
	if opts.Lock != "" {
		want, err := lockfile.ReadScan(opts.Lock)
		if err != nil {
			return err
		}
		changed = append(changed, lockfile.CompareScan(want, res.Lock())...)
	}
	if opts.WriteLock != "" {
		if err := lockfile.WriteScan(opts.WriteLock, res.Lock()); err != nil {
			return err
		}
	}
	failed := res.Failed() || len(changed) > 0
	if opts.JSON {
		if err := writeJSON(ios.Out, scanJSON{Dir: res.Dir, Hooks: res.Hooks, Findings: res.Findings, Changed: changed}); err != nil {
			return err
		}
	} else {
		printScan(ios, res, changed, opts)
	}
	if failed {
		return &ExitError{Code: ExitFailed}
	}
	return nil
}

// printScan is the human report: differences from the lock first, then
// whole files an agent ignores, then each hook with its code and findings.
// Every string from the checkout is escaped (SPEC §13 rule 9).
func printScan(ios *iostreams.IOStreams, res *scan.Result, changed []lockfile.Difference, opts *scanOptions) {
	w, cs := ios.Out, ios.Colors()
	if opts.Lock != "" {
		if len(changed) == 0 {
			fmt.Fprintf(w, "%s The checkout's hooks are what %s records.\n\n", cs.SuccessIcon(), esc(opts.Lock))
		} else {
			fmt.Fprintf(w, "Differences from the lock %s:\n", esc(opts.Lock))
			for _, d := range changed {
				line := fmt.Sprintf("%s: %s", d.Change, d.Name)
				if d.Detail != "" {
					line += ": " + d.Detail
				}
				fmt.Fprintf(w, "  %s %s\n", cs.FailureIcon(), esc(line))
			}
			fmt.Fprintln(w)
		}
	}
	var ignored []scan.Finding
	for _, f := range res.Findings {
		if f.Kind == scan.KindIgnoredFile {
			ignored = append(ignored, f)
		}
	}
	if len(ignored) > 0 {
		fmt.Fprintln(w, "Files an agent ignores whole (none of their hooks runs):")
		for _, f := range ignored {
			fmt.Fprintf(w, "  %s %s: %s\n", cs.FailureIcon(), esc(fileLine(f.File, f.Line)), esc(f.Message))
		}
		fmt.Fprintln(w)
	}
	if len(res.Hooks) == 0 {
		fmt.Fprintf(w, "No hooks in %s.\n", esc(res.Dir))
	} else {
		fmt.Fprintf(w, "Hooks in %s:\n", esc(res.Dir))
	}
	byHook := map[string][]scan.Finding{}
	for _, f := range res.Findings {
		if f.Kind != scan.KindIgnoredFile {
			k := hookKey(f.Agent, f.File, f.Line, f.Event, f.Command)
			byHook[k] = append(byHook[k], f)
		}
	}
	for _, h := range res.Hooks {
		printScanHook(w, cs, h, byHook[hookKey(h.Agent, h.File, h.Line, h.Event, h.Command)])
	}
	serious := 0
	for _, f := range res.Findings {
		if f.Serious() {
			serious++
		}
	}
	fmt.Fprintf(w, "\n%d hook(s), %d finding(s), %d serious", len(res.Hooks), len(res.Findings), serious)
	if opts.Lock != "" {
		fmt.Fprintf(w, ", %d difference(s) from the lock", len(changed))
	}
	fmt.Fprintln(w, ".")
	if opts.WriteLock != "" {
		fmt.Fprintf(w, "%s Wrote the scan section of %s: %d hook(s). Commit it; CI checks with: hermes hooks scan --lock %s\n",
			cs.SuccessIcon(), esc(opts.WriteLock), len(res.Hooks), esc(opts.WriteLock))
	}
}

func hookKey(parts ...any) string { return fmt.Sprint(parts...) }

func fileLine(file string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

func printScanHook(w io.Writer, cs iostreams.Palette, h scan.Hook, found []scan.Finding) {
	head := fmt.Sprintf("%s %s %s", h.Agent, fileLine(h.File, h.Line), h.Event)
	if h.Matcher != nil {
		head += fmt.Sprintf(" (matcher %q)", *h.Matcher)
	}
	fmt.Fprintf(w, "\n  %s\n    command: %s\n", esc(head), esc(h.Command))
	var code []string
	for _, c := range h.Code {
		switch {
		case c.System:
			code = append(code, c.Path+" (system)")
		case c.Missing:
			code = append(code, c.Path+" (missing)")
		default:
			code = append(code, c.Path+" ("+c.SHA256[:12]+")")
		}
	}
	if len(code) > 0 {
		fmt.Fprintf(w, "    code: %s\n", esc(strings.Join(code, ", ")))
	}
	if !h.Pinnable {
		fmt.Fprintf(w, "    %s the code behind this command cannot be pinned: %s\n", cs.WarningIcon(), esc(h.UnpinnableReason))
	}
	if len(h.Findings) > 0 && h.Findings[0] == scan.KindIgnoredFile {
		fmt.Fprintf(w, "    %s %s ignores this whole file: this hook does not run until it is fixed\n", cs.FailureIcon(), esc(h.Agent))
	}
	for _, f := range found {
		icon := cs.WarningIcon()
		if f.Serious() {
			icon = cs.FailureIcon()
		}
		fmt.Fprintf(w, "    %s %s\n", icon, esc(f.Message))
	}
}
