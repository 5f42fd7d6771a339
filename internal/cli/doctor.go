package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/doctor"
	"github.com/hermes-hooks/hermes/internal/hooks/gateway"
	"github.com/hermes-hooks/hermes/internal/lockfile"
)

type doctorOptions struct {
	f        *Factory
	JSON     bool
	Python   string
	Parallel int
	// The CI gate (SPEC §20): see doctorGate.
	NoSmoke     bool
	ExpectHooks int // -1: not asked
	Lock        string
}

func newCmdDoctor(f *Factory, runF func(*doctorOptions) error) *cobra.Command {
	opts := &doctorOptions{f: f}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check every hook; exit 1 when something needs attention",
		Long: `For every shell hook, in config order: the script exists and can run, it is
approved, it did not change since approval, nobody else can write it, and a
smoke run with the event's synthetic payload answers valid JSON (approved
hooks only: doctor never runs an unapproved hook). Gateway hooks: HOOK.yaml,
events, the handler's handle(event_type, context) (checked without running
it), python3. Config problems count too, among them an event name written at
the top level of the config (a bad indent: its hooks are not loaded). Exit 1
when any problem is found.

As a CI gate: --lock FILE fails on any difference between the lock written by
'hermes hooks lock' and the home (a hook, script, gateway file or webhook
added, removed or changed); --expect-hooks N fails when fewer than N hooks
(shell and gateway) are configured; --no-smoke runs no hook (smoke runs run
them for real).`,
		Example: `  hermes hooks doctor
  hermes hooks doctor --lock hooks.lock.json --expect-hooks 3
  hermes hooks doctor --no-smoke --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.ExpectHooks < -1 || cmd.Flags().Changed("expect-hooks") && opts.ExpectHooks < 0 {
				return usageErrorf("--expect-hooks must be 0 or more, got %d", opts.ExpectHooks)
			}
			if opts.Parallel < 0 {
				return usageErrorf("--parallel must be 0 (number of CPUs) or more, got %d", opts.Parallel)
			}
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.Flags().StringVar(&opts.Python, "python", "", "check gateway hooks with the Python interpreter at `PATH` (default $HERMES_PYTHON, else python3)")
	cmd.Flags().IntVar(&opts.Parallel, "parallel", 0, "run `N` smoke runs at once (0: the number of CPUs)")
	cmd.Flags().BoolVar(&opts.NoSmoke, "no-smoke", false, "run no smoke test (they run the hooks for real)")
	cmd.Flags().IntVar(&opts.ExpectHooks, "expect-hooks", -1, "fail when fewer than `N` hooks (shell and gateway) are configured")
	cmd.Flags().StringVar(&opts.Lock, "lock", "", "fail on any difference between the home and the lock `FILE` (see 'hermes hooks lock')")
	return cmd
}

type doctorJSON struct {
	whereJSON
	Hooks       []doctorHookJSON    `json:"hooks"`
	Diagnostics []config.Diagnostic `json:"diagnostics"`
	Problems    int                 `json:"problems"`
	Healthy     bool                `json:"healthy"`
	// Allowlist are notes on the allowlist as a whole (stale entries,
	// secrets stored in clear); present when there is one. Never problems.
	Allowlist []doctor.Check `json:"allowlist,omitempty"`
	// Recording: payload recording (SPEC §26), when it is on or something
	// is stored. Never a problem.
	Recording *doctor.RecordingReport `json:"recording,omitempty"`
	// LockDifferences: with --lock, every difference from the lock (each
	// also a failed check of the "gate" entry).
	LockDifferences *[]lockfile.Difference `json:"lock_differences,omitempty"`
}

type doctorHookJSON struct {
	Kind  string `json:"kind"`
	Event string `json:"event,omitempty"`
	// Shell hooks only: command, as in every --json.
	*commandJSON
	Name     string         `json:"name,omitempty"`
	Checks   []doctor.Check `json:"checks"`
	Problems int            `json:"problems"`
}

func doctorRun(cmd *cobra.Command, opts *doctorOptions) error {
	e, err := opts.f.Engine(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	list, warnings, err := e.Store.Read()
	if err != nil {
		return err
	}
	diags := e.Diagnostics()
	python := ""
	var pyErr error
	if err := e.GatewayError(); err != nil {
		return err
	}
	if len(e.GatewayHooks()) > 0 {
		python, pyErr = gateway.FindPython(opts.Python, opts.f.Env)
	}
	safe := safeMode(opts.f)
	if safe {
		fmt.Fprintln(ios.ErrOut, "HERMES_SAFE_MODE is set: doctor runs no smoke test.")
	}
	gate, err := doctorGate(opts)
	if err != nil {
		return err
	}
	reports := doctor.Run(cmd.Context(), e, list, doctor.Options{Parallel: opts.Parallel, Python: python, PyErr: pyErr, SafeMode: safe, NoSmoke: opts.NoSmoke})
	gateReport, lockDiffs := doctor.GateReport(e, gate)
	if len(gateReport.Checks) > 0 {
		reports = append(reports, gateReport)
	}
	allowlistChecks := doctor.AllowlistChecks(e.Setup, list)
	recording := doctor.Recording(e.Loc.Home, e.Loc.ConfigPath, func(k string) string { v, _ := opts.f.Env(k); return v })
	if cmd.Context().Err() != nil {
		return CancelError
	}
	problems := 0
	for _, d := range diags {
		if d.Level != config.LevelInfo {
			problems++
		}
	}
	for _, r := range reports {
		problems += r.Problems()
	}
	// Config problems go to stderr like every command's warnings, and are
	// counted (and listed) in the report too.
	printWarnings(ios, diags, warnings)
	if opts.JSON {
		out := doctorJSON{whereJSON: where(e.Loc),
			Hooks: []doctorHookJSON{}, Diagnostics: diags, Problems: problems, Healthy: problems == 0,
			Allowlist: allowlistChecks, Recording: recording}
		if gate.Lock != nil {
			d := append([]lockfile.Difference{}, lockDiffs...)
			out.LockDifferences = &d
		}
		for _, r := range reports {
			j := doctorHookJSON{Kind: r.Kind, Name: r.Name, Checks: r.Checks, Problems: r.Problems()}
			if r.Spec != nil {
				named := commandOf(*r.Spec)
				j.Event, j.commandJSON = r.Spec.Event, &named
			}
			out.Hooks = append(out.Hooks, j)
		}
		if err := writeJSON(ios.Out, out); err != nil {
			return err
		}
	} else {
		w := ios.Out
		cs := ios.Colors()
		printLocation(w, e.Loc)
		if len(diags) > 0 {
			fmt.Fprintf(w, "\n%s\n", cs.Bold("Config"))
			for _, d := range diags {
				fmt.Fprintf(w, "  %s %s\n", cs.FailureIcon(), esc(d.String()))
			}
		}
		if len(reports) == 0 || len(reports) == 1 && reports[0].Kind == "gate" {
			fmt.Fprintln(w, "\nNo hooks configured.")
		}
		for _, r := range reports {
			switch r.Kind {
			case "shell":
				fmt.Fprintf(w, "\n%s  %s\n", cs.Cyan(esc(r.Spec.Event)), cs.Bold(esc(r.Spec.Named())+protectedMark(*r.Spec)))
			case "home":
				fmt.Fprintf(w, "\n%s  %s\n", cs.Cyan("home"), cs.Bold(esc(r.Name)))
			case "gate":
				fmt.Fprintf(w, "\n%s\n", cs.Bold(esc(r.Name)))
			default:
				fmt.Fprintf(w, "\n%s  %s\n", cs.Cyan("gateway"), cs.Bold(esc(r.Name)))
			}
			for _, c := range r.Checks {
				fmt.Fprintf(w, "  %s %s\n", checkIcon(ios.Colors(), c.Status), escText(c.Message))
			}
		}
		if len(allowlistChecks) > 0 {
			fmt.Fprintf(w, "\n%s\n", cs.Bold("Allowlist"))
			for _, c := range allowlistChecks {
				fmt.Fprintf(w, "  %s %s\n", checkIcon(cs, c.Status), escText(c.Message))
			}
		}
		if recording != nil {
			fmt.Fprintf(w, "\n%s\n  %s %s\n", cs.Bold("Recording"), cs.InfoIcon(), esc(recordingLine(recording)))
			if recording.MaxProblem != "" {
				fmt.Fprintf(w, "  %s %s; the default 64 MiB is used\n", cs.WarningIcon(), esc(recording.MaxProblem))
			}
		}
		fmt.Fprintln(w)
		if problems == 0 {
			fmt.Fprintf(w, "%s All shell hooks look healthy.\n", cs.SuccessIcon())
		} else {
			fmt.Fprintf(w, "%s %d issue(s) found.\n", cs.FailureIcon(), problems)
		}
	}
	if problems > 0 {
		return &ExitError{Code: ExitFailed}
	}
	return nil
}

// doctorGate reads what the CI gate flags ask for: the lock (an unusable
// lock file is exit 2) and --expect-hooks.
func doctorGate(opts *doctorOptions) (doctor.Gate, error) {
	g := doctor.Gate{ExpectHooks: opts.ExpectHooks, LockPath: opts.Lock}
	if opts.Lock == "" {
		return g, nil
	}
	l, err := lockfile.Read(opts.Lock)
	if err != nil {
		return g, err
	}
	g.Lock = l
	return g, nil
}

func checkIcon(cs interface {
	SuccessIcon() string
	WarningIcon() string
	FailureIcon() string
	InfoIcon() string
}, status string) string {
	switch status {
	case doctor.CheckOK:
		return cs.SuccessIcon()
	case doctor.CheckWarn:
		return cs.WarningIcon()
	case doctor.CheckFail:
		return cs.FailureIcon()
	}
	return cs.InfoIcon()
}

// recordingLine says whether payloads are recorded and what the store holds.
func recordingLine(r *doctor.RecordingReport) string {
	state := "recording is off"
	if r.On {
		state = "recording is on (hooks_record or HERMES_HOOKS_RECORD)"
	}
	line := fmt.Sprintf("%s: %d payload(s), %s of %s in %s", state, r.Payloads, sizeText(r.Bytes), sizeText(r.MaxBytes), r.Folder)
	if r.Err != "" {
		line += " (the folder cannot be read: " + r.Err + ")"
	}
	return line
}

// sizeText is a byte count for people: 512 B, 3.2 KiB, 64.0 MiB.
func sizeText(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
