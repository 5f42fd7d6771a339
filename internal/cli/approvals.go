package cli

import (
	"fmt"

	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/spf13/cobra"
)

type approvalsOptions struct {
	f    *Factory
	JSON bool
}

func newCmdApprovals(f *Factory, runF func(*approvalsOptions) error) *cobra.Command {
	opts := &approvalsOptions{f: f}
	cmd := &cobra.Command{
		Use:   "approvals",
		Short: "Show every allowlist entry and whether it is stale",
		Long: `Show every entry of the allowlist: its event and command, when and how it was
approved, whether it pins the script's sha256, the script's drift, and whether
it is stale (no configured hook has that event and command: it approves
nothing; remove stale entries with 'hermes hooks prune').`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return approvalsRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}

type approvalsJSON struct {
	whereJSON
	Approvals []approvalJSON `json:"approvals"`
}

type approvalJSON struct {
	Event string `json:"event"`
	commandJSON
	ApprovedAt  *string `json:"approved_at"`
	ApprovedVia *string `json:"approved_via"`
	Pinned      bool    `json:"pinned"`
	Drift       *string `json:"drift"`
	Stale       bool    `json:"stale"`
}

func approvalsRun(cmd *cobra.Command, opts *approvalsOptions) error {
	s, list, err := opts.f.loadAndRead(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	approvals := s.Approvals(list)
	if opts.JSON {
		out := approvalsJSON{whereJSON: where(s.Loc), Approvals: []approvalJSON{}}
		for _, a := range approvals {
			j := approvalJSON{Event: a.Entry.Event, commandJSON: commandJSON{Command: a.Shown()},
				ApprovedAt: pyjson.NullIfEmpty(a.Entry.ApprovedAt), ApprovedVia: pyjson.NullIfEmpty(a.Entry.ApprovedVia),
				Pinned: a.Entry.Pinned(), Drift: pyjson.NullIfEmpty(string(a.Drift)), Stale: a.Stale()}
			if a.Hook != nil {
				j.commandJSON = commandOf(*a.Hook)
			}
			out.Approvals = append(out.Approvals, j)
		}
		return writeJSON(ios.Out, out)
	}
	w, cs := ios.Out, ios.Colors()
	printLocation(w, s.Loc)
	fmt.Fprintf(w, "Allowlist: %s\n\n", esc(s.Store.Path))
	if len(approvals) == 0 {
		fmt.Fprintln(w, "No allowlist entries.")
		return nil
	}
	stale := 0
	for _, a := range approvals {
		state := cs.SuccessIcon() + " in use"
		if a.Stale() {
			state = cs.InfoIcon() + " stale"
			stale++
		}
		fmt.Fprintf(w, "%s  %s  %s\n", state, cs.Cyan(esc(a.Entry.Event)), esc(a.Shown()))
		via := "the agent"
		if a.Entry.ApprovedVia != "" {
			via = a.Entry.ApprovedVia
		}
		pin := "pinned (sha256 recorded)"
		if !a.Entry.Pinned() {
			pin = "not pinned"
		}
		fmt.Fprintf(w, "      approved_at: %s (via %s)  %s  drift: %s\n", esc(orNone(a.Entry.ApprovedAt)), esc(via), pin, a.Drift)
	}
	fmt.Fprintf(w, "\n%d allowlist entry(ies), %d stale.\n", len(approvals), stale)
	if stale > 0 {
		fmt.Fprintln(w, "Stale entries approve no configured hook; remove them with: hermes hooks prune")
	}
	return nil
}
