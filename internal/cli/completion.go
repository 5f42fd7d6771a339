package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

type completionOptions struct {
	f       *Factory
	Shell   string
	Install bool
}

// completionPlaces is where each shell looks for completions: per user
// (what --install writes) and under a PREFIX (what make install writes).
const completionPlaces = `Where each shell looks:
  bash  ~/.local/share/bash-completion/completions/hermes
        ($XDG_DATA_HOME/bash-completion/completions; needs the bash-completion
        package); system-wide: PREFIX/share/bash-completion/completions/hermes
  zsh   a folder on $fpath: --install writes ~/.zfunc/_hermes (add
        'fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit' to ~/.zshrc);
        system-wide: PREFIX/share/zsh/site-functions/_hermes
  fish  ~/.config/fish/completions/hermes.fish ($XDG_CONFIG_HOME/fish/completions);
        system-wide: PREFIX/share/fish/vendor_completions.d/hermes.fish

--install writes the per-user file, creating its folders (a fresh home has
none of them), and says where it went. Open a new shell to use it.`

func newCmdCompletion(f *Factory, runF func(*completionOptions) error) *cobra.Command {
	opts := &completionOptions{f: f}
	cmd := &cobra.Command{
		Use:   "completion bash|zsh|fish",
		Short: "Print (or install) a shell completion script",
		Long: `Print the completion script for a shell on stdout, or with --install write it
where that shell looks for it. Completion knows the event names and the
commands configured in your hooks.

` + completionPlaces,
		Example: `  hermes completion bash --install
  hermes completion zsh > "${fpath[1]}/_hermes"
  hermes completion fish > ~/.config/fish/completions/hermes.fish`,
		Args:      exactArgs(1, "a shell: bash, zsh or fish"),
		ValidArgs: []string{"bash", "zsh", "fish"},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Shell = args[0]
			switch opts.Shell {
			case "bash", "zsh", "fish":
			default:
				return usageErrorf("unknown shell %q: choose bash, zsh or fish", opts.Shell)
			}
			if runF != nil {
				return runF(opts)
			}
			return completionRun(cmd, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Install, "install", false, "write the script where the shell looks for it (see below), creating the folders")
	return cmd
}

func completionRun(cmd *cobra.Command, opts *completionOptions) error {
	var buf bytes.Buffer
	if err := writeCompletion(cmd.Root(), opts.Shell, &buf); err != nil {
		return err
	}
	if !opts.Install {
		_, err := opts.f.IO.Out.Write(buf.Bytes())
		return err
	}
	path, err := userCompletionPath(opts.f, opts.Shell)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("installing the %s completion: %w", opts.Shell, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("installing the %s completion: %w", opts.Shell, err)
	}
	ios := opts.f.IO
	fmt.Fprintf(ios.Out, "%s Wrote the %s completion to %s\n", ios.Colors().SuccessIcon(), opts.Shell, esc(path))
	switch opts.Shell {
	case "bash":
		fmt.Fprintln(ios.Out, "bash loads it from there through the bash-completion package; open a new shell.")
	case "zsh":
		fmt.Fprintln(ios.Out, "Add to ~/.zshrc (once): fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit — then open a new shell.")
	case "fish":
		fmt.Fprintln(ios.Out, "fish loads it from there; open a new shell.")
	}
	return nil
}

// writeCompletion writes the completion script of shell for root.
func writeCompletion(root *cobra.Command, shell string, w *bytes.Buffer) error {
	switch shell {
	case "bash":
		return root.GenBashCompletionV2(w, true)
	case "zsh":
		return root.GenZshCompletion(w)
	case "fish":
		return root.GenFishCompletion(w, true)
	}
	return usageErrorf("unknown shell %q: choose bash, zsh or fish", shell)
}

// userCompletionPath is where shell looks for a user's completion of
// hermes (XDG variables honoured).
func userCompletionPath(f *Factory, shell string) (string, error) {
	home := f.UserHome()
	if home == "" {
		return "", fmt.Errorf("cannot find your home directory to install the %s completion: set HOME, or redirect 'hermes completion %s' to a file", shell, shell)
	}
	xdg := func(name, def string) string {
		if f.Env != nil {
			if v, ok := f.Env(name); ok && filepath.IsAbs(v) {
				return v
			}
		}
		return filepath.Join(home, def)
	}
	switch shell {
	case "bash":
		return filepath.Join(xdg("XDG_DATA_HOME", ".local/share"), "bash-completion", "completions", "hermes"), nil
	case "zsh":
		return filepath.Join(home, ".zfunc", "_hermes"), nil
	default:
		return filepath.Join(xdg("XDG_CONFIG_HOME", ".config"), "fish", "completions", "hermes.fish"), nil
	}
}
