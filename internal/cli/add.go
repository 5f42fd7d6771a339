package cli

import (
	"errors"
	"fmt"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/pyjson"
	"github.com/spf13/cobra"
)

type addOptions struct {
	f          *Factory
	Event      string
	Command    string
	Matcher    string
	Timeout    string
	FailClosed bool
	Force      bool
	DryRun     bool
	JSON       bool
}

func newCmdAdd(f *Factory, runF func(*addOptions) error) *cobra.Command {
	opts := &addOptions{f: f}
	cmd := &cobra.Command{
		Use:   "add <event> <command>",
		Short: "Add a shell hook to the config file",
		Long: `Add a shell hook to the hooks: block of the config file, keeping every other
line of the file as it is (comments, order, quoting, indentation). The config
file, hooks: and the event's list are created as needed.

The event is checked, the matcher compiled and the command split as the agent
would; the same (event, matcher, command) already configured is an error
(exit 1) and nothing is written. A hook that could never fire — a matcher
Python's re rejects (the agent would compare it literally) or a script that
does not exist — is refused (exit 1) unless --force; a matcher naming no tool
of the agent (Claude Code's Bash, say) is warned about with the closest name. The hook is not approved: run
'hermes hooks accept' when you have read the script.`,
		Example: `  hermes hooks add pre_tool_call '${HERMES_HOME}/agent-hooks/guard.sh' --matcher 'terminal|patch' --timeout 10
  hermes hooks add post_tool_call 'python3 /opt/hooks/log.py' --dry-run`,
		Args: exactArgs(2, "an event and a command"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Event, opts.Command = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return addRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	addHookFlags(cmd, &opts.Matcher, &opts.Timeout, &opts.FailClosed)
	fl.BoolVar(&opts.Force, "force", false, "add the hook even when it could never fire (a matcher Python rejects, a script that does not exist)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and change nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	cmd.ValidArgsFunction = completeShellEventArg(f)
	return cmd
}

type addJSON struct {
	editJSON
	Event   string  `json:"event"`
	Command string  `json:"command"`
	Matcher *string `json:"matcher"`
	Timeout *int    `json:"timeout"`
}

func addRun(cmd *cobra.Command, opts *addOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	// The config's advice first: a misspelled key in an entry written by
	// hand is silent in the agent (SPEC §28 item 2). Its other warnings
	// are list's and doctor's to show.
	var advice []config.Diagnostic
	for _, d := range s.Diagnostics() {
		if d.Advisory {
			advice = append(advice, d)
		}
	}
	printWarnings(ios, advice, nil)
	h := hookspec.NewHook{Event: opts.Event, Command: opts.Command, Matcher: opts.Matcher, FailClosed: opts.FailClosed}
	warnings, neverFires, err := checkNewHook(s, &h, opts.Timeout)
	if err != nil {
		return err
	}
	if why := missingScript(s, h.Command); why != "" {
		neverFires = append(neverFires, why)
	}
	if why := notExecutable(s, h.Command); why != "" {
		warnings = append(warnings, why)
	}
	if err := refuseNeverFires(ios, warnings, neverFires, opts.Force); err != nil {
		return err
	}
	// The hooks were parsed for their advice: let go of them before the
	// edit reads the file again (a 55 MB config's are 138 MB; SPEC §29
	// item 2). Nothing below reads them.
	s.Parsed = nil
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		return hookspec.AddToConfig(old, h, configEnv(s))
	})
	if errors.Is(err, hookspec.ErrAlreadyConfigured) {
		if opts.JSON {
			out := addJSON{editJSON: editJSON{where(s.Loc), false, ""}, Event: h.Event, Command: h.Command, Matcher: pyjson.NullIfEmpty(h.Matcher)}
			if h.Timeout > 0 {
				out.Timeout = &h.Timeout
			}
			if err := writeJSON(ios.Out, out); err != nil {
				return err
			}
		}
		fmt.Fprintf(ios.ErrOut, "%s %s in %s; nothing was written\n", ios.ErrColors().FailureIcon(), esc(err.Error()), esc(configName(s)))
		return SilentError
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		out := addJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, Event: h.Event, Command: h.Command,
			Matcher: pyjson.NullIfEmpty(h.Matcher)}
		if h.Timeout > 0 {
			out.Timeout = &h.Timeout
		}
		if opts.DryRun && s.Loc.ConfigPath == "" {
			out.ConfigPath = &res.Path
		}
		return writeJSON(ios.Out, out)
	}
	reportEdit(opts.f, s, res, fmt.Sprintf("added  %s  %s", esc(h.Event), esc(h.Command)))
	if !opts.DryRun {
		// accept takes the command as written (SPEC §13 rule 11): an
		// expanded ${API_TOKEN} must not be printed.
		fmt.Fprintf(ios.Out, "Not approved yet: read the script, then run  hermes hooks accept %s --event %s\n",
			pasteQuote(h.Command), pasteQuote(h.Event))
		fmt.Fprintf(ios.Out, "Try it:  hermes hooks test %s\n", pasteQuote(h.Event))
	}
	return nil
}
