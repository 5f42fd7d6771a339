package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/lockfile"
)

type lockOptions struct {
	f      *Factory
	Output string
}

func newCmdLock(f *Factory, runF func(*lockOptions) error) *cobra.Command {
	opts := &lockOptions{f: f}
	cmd := &cobra.Command{
		Use:   "lock",
		Short: "Write the lock of reviewed hooks (hooks.lock.json) for CI",
		Long: `Write every configured shell hook (event, matcher, command as written, script
relative to HERMES_HOME when inside it, its sha256), every gateway hook (each
file of its folder with its sha256) and every outbound webhook (URL redacted,
events) to a lock file, by default <HERMES_HOME>/hooks.lock.json.

The file is sorted and has no timestamps: the same home always gives the same
bytes, so it can be committed and reviewed in a pull request. CI then approves
exactly what the lock says with 'hermes hooks accept --from-lock FILE', and
'hermes hooks doctor --lock FILE' fails on any difference.`,
		Example: `  hermes hooks lock
  hermes hooks lock --output hooks.lock.json
  hermes hooks lock --output - | less`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return lockRun(cmd, opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the lock to `FILE` (- for stdout; default <HERMES_HOME>/hooks.lock.json)")
	return cmd
}

func lockRun(cmd *cobra.Command, opts *lockOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	printWarnings(ios, s.Diagnostics(), nil)
	if err := s.GatewayError(); err != nil {
		return err
	}
	l, err := s.Lock()
	if err != nil {
		return err
	}
	cs := ios.ErrColors()
	for _, h := range l.ShellHooks {
		if h.SHA256 == nil {
			fmt.Fprintf(ios.ErrOut, "%s %s: the script cannot be read, so the lock records no sha256 for it\n", cs.WarningIcon(), esc(lockfile.ShellName(h)))
		}
	}
	if opts.Output == "-" {
		_, err := ios.Out.Write(lockfile.Marshal(l))
		return err
	}
	path := opts.Output
	if path == "" {
		path = filepath.Join(s.Loc.Home, lockfile.DefaultName)
		if s.Loc.HomeSource == "" {
			// ~/.hermes is created on demand (a home named explicitly
			// exists: Locate checked).
			if err := os.MkdirAll(s.Loc.Home, 0o700); err != nil {
				return fmt.Errorf("creating %s for the lock: %w", s.Loc.Home, err)
			}
		}
	}
	if old, err := lockfile.Read(path); err == nil {
		l.Scan = old.Scan // what scan --write-lock recorded of the checkout stays
	}
	if err := lockfile.Write(path, l); err != nil {
		return err
	}
	fmt.Fprintf(ios.Out, "%s Wrote %s: %d shell hook(s), %d gateway hook(s), %d outbound webhook(s).\n",
		ios.Colors().SuccessIcon(), esc(path), len(l.ShellHooks), len(l.GatewayHooks), len(l.OutboundWebhooks))
	fmt.Fprintln(ios.Out, "Commit it; CI approves exactly this with: hermes hooks accept --from-lock "+esc(path))
	return nil
}
