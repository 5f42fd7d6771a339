package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

type pruneOptions struct {
	f      *Factory
	DryRun bool
	Yes    bool
	JSON   bool
}

func newCmdPrune(f *Factory, runF func(*pruneOptions) error) *cobra.Command {
	opts := &pruneOptions{f: f}
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove allowlist entries that approve no configured hook",
		Long: `Remove the stale entries of the allowlist: those whose event and command no
configured hook has (see 'hermes hooks approvals'). The file is rewritten under
its lock, atomically; an unreadable allowlist is kept aside first. Off a
terminal this needs --yes; --dry-run only says what would go.`,
		Example: `  hermes hooks prune --dry-run
  hermes hooks prune --yes --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return pruneRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.DryRun, "dry-run", false, "say which entries would be removed; change nothing")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "do not ask (needed off a terminal)")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

type pruneJSON struct {
	whereJSON
	Removed int `json:"removed"`
	// RemovedEntries lists the entries removed (or that would be);
	// Entries is the same list under its old name, kept for one release.
	RemovedEntries []prunedEntryJSON `json:"removed_entries"`
	Entries        []prunedEntryJSON `json:"entries"`
	DryRun         bool              `json:"dry_run"`
}

type prunedEntryJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
}

func pruneRun(cmd *cobra.Command, opts *pruneOptions) error {
	opts.f.IO.SetPromptOnStderr(opts.JSON)
	s, err := opts.f.LoadWithAllowlist(cmd)
	if err != nil {
		return err
	}
	if !opts.DryRun {
		if err := s.Loc.CheckWritable(); err != nil {
			return err
		}
	}
	ios := opts.f.IO
	// First what would go, for the question and for --dry-run.
	stale, warnings, err := s.PruneStale(true)
	printWarnings(ios, s.Diagnostics(), warnings)
	if err != nil {
		return err
	}
	if !opts.DryRun && len(stale) > 0 && !opts.Yes {
		if !ios.CanPrompt() {
			return usageErrorf("removing %d stale allowlist entry(ies) off a terminal needs --yes (see them with --dry-run)", len(stale))
		}
		w := ios.PromptOut()
		for i, shown := range s.ShownEntries(stale) {
			fmt.Fprintf(w, "  %s  %s\n", esc(stale[i].Event), esc(shown))
		}
		ok, err := opts.f.Prompter.Confirm(fmt.Sprintf("Remove %d stale allowlist entry(ies)?", len(stale)), "", false)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(ios.ErrOut, "Nothing removed.")
			if opts.JSON {
				return writeJSON(ios.Out, pruneJSON{whereJSON: where(s.Loc), RemovedEntries: []prunedEntryJSON{}, Entries: []prunedEntryJSON{}})
			}
			return nil
		}
	}
	gone := stale
	if !opts.DryRun && len(stale) > 0 {
		// Exactly the entries shown, decided again under the locks: another
		// process may have changed the file since it was read (SPEC §13.2
		// rule 4), or be halfway through protecting hooks (SPEC §29).
		if s, gone, err = pruneLocked(cmd, opts.f, s, stale); err != nil {
			return err
		}
	}
	if opts.JSON {
		out := pruneJSON{whereJSON: where(s.Loc), Removed: len(gone), RemovedEntries: []prunedEntryJSON{}, DryRun: opts.DryRun}
		if opts.DryRun {
			out.Removed = 0
		}
		for i, shown := range s.ShownEntries(gone) {
			out.RemovedEntries = append(out.RemovedEntries, prunedEntryJSON{gone[i].Event, shown})
		}
		out.Entries = out.RemovedEntries
		return writeJSON(ios.Out, out)
	}
	w, cs := ios.Out, ios.Colors()
	printLocation(w, s.Loc)
	fmt.Fprintf(w, "Allowlist: %s\n\n", esc(s.Store.Path))
	switch {
	case len(gone) == 0:
		fmt.Fprintln(w, "No stale allowlist entries: every entry approves a configured hook.")
		return nil
	case opts.DryRun:
		fmt.Fprintf(w, "Would remove %d stale allowlist %s (dry run: nothing changed):\n", len(gone), entriesNoun(len(gone)))
	default:
		fmt.Fprintf(w, "%s Removed %d stale allowlist %s:\n", cs.SuccessIcon(), len(gone), entriesNoun(len(gone)))
	}
	for i, shown := range s.ShownEntries(gone) {
		fmt.Fprintf(w, "  %s  %s\n", esc(gone[i].Event), esc(shown))
	}
	return nil
}

// pruneLocked removes the stale entries shown that are stale still, judged
// against the config read under the config's lock (the one protect and
// unprotect hold across their allowlist writes and the config's rename):
// the config may have changed while the question was open, or an edit may
// have been halfway through. It returns the setup judged against.
func pruneLocked(cmd *cobra.Command, f *Factory, s *hooks.Setup, shown []allowlist.Entry) (*hooks.Setup, []allowlist.Entry, error) {
	unlock, err := lockConfig(cmd, f, s)
	if err != nil {
		return s, nil, err
	}
	defer unlock()
	if s, err = f.LoadWithAllowlist(cmd); err != nil {
		return s, nil, err
	}
	gone, warnings, err := s.PruneShown(shown)
	printWarnings(f.IO, nil, warnings)
	return s, gone, err
}

func entriesNoun(n int) string {
	if n == 1 {
		return "entry"
	}
	return "entries"
}
