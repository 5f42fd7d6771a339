package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/record/casefile"
)

type casesCanariesOptions struct {
	f      *Factory
	Output string
}

func newCmdCasesCanaries(f *Factory, runF func(*casesCanariesOptions) error) *cobra.Command {
	opts := &casesCanariesOptions{f: f}
	cmd := &cobra.Command{
		Use:   "canaries",
		Short: "Write a starter set of everyday calls that no guard should block",
		Long: `Write a case file of canaries: everyday calls of the agent (ls -la, git
status, mkdir -p /tmp/x 2>/dev/null, rm -rf ./build, npm test, pytest -q, go
build ./..., reading and patching README.md and src/…, a search, a
documentation page…), each marked canary: true, which means it must be
allowed. 'hermes hooks test --cases' reports canaries in a section of their
own; a blocked canary fails the run.

A guard written against a few imagined commands often blocks ordinary work
too: keep the canaries that fit your agent's day, add your own.`,
		Example: `  hermes hooks cases canaries --output canaries.yaml
  hermes hooks test --cases canaries.yaml`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return casesCanariesRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "write the cases to `FILE` instead of stdout")
	return cmd
}

func casesCanariesRun(opts *casesCanariesOptions) error {
	cases := casefile.Canaries()
	if err := writeCases(opts.f, opts.Output, casefile.CanaryHeader(), cases, casefile.CanaryMadeBy); err != nil {
		return err
	}
	if opts.Output != "" {
		fmt.Fprintf(opts.f.IO.ErrOut, "Wrote %d canaries to %s.\n", len(cases), esc(opts.Output))
	}
	return nil
}
