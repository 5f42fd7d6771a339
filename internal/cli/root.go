// Package cli is the command-line surface: Cobra commands, flag parsing,
// prompts and rendering. It is the only package that prints or knows about
// Cobra and survey.
package cli

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// Execute runs the command tree on args and returns its error marked with
// the command that failed and whether it was asked for JSON, for
// HandleError. An error that comes with the context's end (Ctrl-C,
// SIGTERM) is CancelError.
func Execute(ctx context.Context, root *cobra.Command, args []string) error {
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return nil
	}
	var reported *reportedError
	if ctx.Err() != nil && !errors.Is(err, CancelError) && !errors.As(err, &reported) {
		err = CancelError
	}
	if cmd == nil {
		cmd = root
	}
	var fe *flagError
	return &invocationError{err: err, path: cmd.CommandPath(), json: wantsJSON(cmd, args, !errors.As(err, &fe))}
}

// flagError is a usage error found while parsing flags: the flags after it
// were not read.
type flagError struct{ *UsageError }

func (e *flagError) Unwrap() error { return e.UsageError }

// wantsJSON reports whether the command was given --json: as parsed when
// its flags were, else as written (a bad flag stops the parsing before
// --json may be reached).
func wantsJSON(cmd *cobra.Command, args []string, parsed bool) bool {
	if fl := cmd.Flags().Lookup("json"); parsed || fl != nil && fl.Changed {
		return fl != nil && fl.Value.String() == "true"
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json" {
			return true
		}
		if v, ok := strings.CutPrefix(a, "--json="); ok {
			b, err := strconv.ParseBool(v)
			return err == nil && b
		}
	}
	return false
}

// NewRootCmd builds `hermes` and its command tree.
func NewRootCmd(f *Factory) *cobra.Command { return newRootCmd(f, "") }

// NewRootCmdFor is NewRootCmd for running args: when they plainly name a
// subcommand of `hooks` (plainHooksCommand), `hooks` gets only that one,
// which is all Cobra will look at; otherwise the whole tree (help,
// suggestions for a mistyped word and completion read all of it).
func NewRootCmdFor(f *Factory, args []string) *cobra.Command {
	return newRootCmd(f, plainHooksCommand(args))
}

// newRootCmd builds `hermes`; onlyHooks, when not "", is the one
// subcommand of `hooks` to build.
func newRootCmd(f *Factory, onlyHooks string) *cobra.Command {
	root := &cobra.Command{
		Use:           "hermes",
		Short:         "Inspect, approve, test and fire the hooks of the Hermes agent",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
		// Without a subcommand, show help; Cobra reports an unknown one
		// with a suggestion (Args stays nil for that).
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if noColor, _ := cmd.Flags().GetBool("no-color"); noColor {
				f.IO.SetNoColor(true)
			}
			if f.LockTimeout <= 0 {
				return usageErrorf("--lock-timeout must be positive, got %s", f.LockTimeout)
			}
			// A prompt must give way to Ctrl-C or SIGTERM sent from outside
			// (survey's raw mode only sees the keys).
			if p, ok := f.Prompter.(interface{ SetContext(context.Context) }); ok {
				p.SetContext(cmd.Context())
			}
			return nil
		},
	}
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		// A group (hermes hooks) given a word it does not know, then a flag
		// only a subcommand has (hooks lsit --json): the word is the mistake.
		if words := cmd.Flags().Args(); cmd.HasAvailableSubCommands() && len(words) > 0 {
			return &flagError{unknownCommand(cmd, words[0])}
		}
		return &flagError{&UsageError{msg: err.Error() + flagSuggestion(cmd, err)}}
	})

	pf := root.PersistentFlags()
	pf.String("home", "", "Hermes home `DIR` (default: $HERMES_HOME, else ~/.hermes)")
	pf.StringP("profile", "p", "", "use the profile `NAME` (<root>/profiles/NAME)")
	pf.String("config", "", "config `FILE` (default: <home>/config.yaml, else <home>/cli-config.yaml)")
	pf.Bool("accept-hooks", false, "approve unseen shell hooks without asking (recorded in the allowlist)")
	pf.Bool("no-color", false, "no colour in the output (also NO_COLOR)")
	pf.BoolP("verbose", "v", false, "say more about what is done")
	pf.Var(newSecondsValue(&f.LockTimeout, f.lockTimeoutDefault()), "lock-timeout",
		"give up waiting for the allowlist lock after `DURATION` (seconds, or 30s, 1m)")
	f.Settings.BindPFlags(pf)

	root.SetHelpTemplate(root.HelpTemplate() + "\n" + exitCodeTable + "\n")
	root.AddCommand(newCmdHooks(f, onlyHooks))
	root.AddCommand(newCmdVersion(f))
	root.AddCommand(newCmdCompletion(f, nil))
	return root
}

// versionJSON is `hermes version --json`.
type versionJSON struct {
	Version   string `json:"version"`
	GoVersion string `json:"go_version"`
	OS        string `json:"os"`
	Arch      string `json:"arch"`
}

func newCmdVersion(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of hermes",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				return writeJSON(f.IO.Out, versionJSON{Version: Version, GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH})
			}
			_, err := f.IO.Out.Write([]byte("hermes " + Version + "\n"))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (see docs/json.md)")
	return cmd
}
