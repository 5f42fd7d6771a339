package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/regfile"
	"github.com/hermes-hooks/hermes/internal/shell"
)

type editOptions struct {
	f       *Factory
	Command string
	Event   string
	From    string
	Yes     bool
	SHA256  string
	// File is which file of the hook's code to edit, when it has several.
	File string
}

func newCmdEdit(f *Factory, runF func(*editOptions) error) *cobra.Command {
	opts := &editOptions{f: f}
	cmd := &cobra.Command{
		Use:   "edit COMMAND",
		Short: "Edit a hook's script and approve the new version in one step",
		Long: `Open a copy of the hook's script in $VISUAL, else $EDITOR, else vi. When the
editor exits, show the diff against the approved version and ask once; on yes
the new content replaces the script atomically (mode and owner kept) and is
approved in the same locked step, so at no instant is an unapproved version
at the script's path: a protected guard is never refused, a fail-closed one
never blocks everything, an unprotected one is never skipped.

On no, or when nothing changed, nothing is written; the edited copy is kept
and its path printed. Off a terminal, --from FILE is the new content and
--yes approves it (--sha256 HEX approves only that content).`,
		Example: `  hermes hooks edit '~/.hermes/agent-hooks/guard.sh'
  hermes hooks edit "$CMD" --from new-guard.sh --yes
  hermes hooks edit "$CMD" --from new-guard.sh --yes --sha256 9f86d081884c7d65...`,
		Args: exactArgs(1, "a command (the exact string from the config)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Command = args[0]
			if opts.SHA256 != "" {
				opts.SHA256 = strings.ToLower(strings.TrimSpace(opts.SHA256))
				if !isSHA256(opts.SHA256) {
					return usageErrorf("--sha256 %q is not a sha256 (64 hex digits)", opts.SHA256)
				}
			}
			if !opts.f.IO.CanPrompt() {
				if opts.From == "" {
					return usageErrorf("off a terminal there is no editor to open: give the new content with --from FILE and approve it with --yes")
				}
				if !opts.Yes {
					return usageErrorf("replacing and approving a script off a terminal needs --yes (hooks run with your full user credentials)")
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return editRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Event, "event", "", "the hook of this `EVENT` when the command serves several")
	fl.StringVar(&opts.From, "from", "", "take the new content from `FILE` instead of opening an editor")
	fl.BoolVarP(&opts.Yes, "yes", "y", false, "do not ask (needed off a terminal)")
	fl.StringVar(&opts.SHA256, "sha256", "", "approve only if the new content's sha256 is `HEX`")
	fl.StringVar(&opts.File, "file", "", "the `FILE` of the hook's code to edit, when its code is in several files")
	cmd.ValidArgsFunction = completeCommands(f)
	_ = cmd.RegisterFlagCompletionFunc("event", completeShellEvents(f))
	return cmd
}

func editRun(cmd *cobra.Command, opts *editOptions) error {
	s, list, err := opts.f.loadAndRead(cmd)
	if err != nil {
		return err
	}
	if err := s.Loc.CheckWritable(); err != nil {
		return err
	}
	ios := opts.f.IO
	h, err := editTarget(s, list, opts)
	if err != nil {
		return err
	}
	file, err := chooseEditFile(opts.f, s, h, opts.File)
	if err != nil {
		return err
	}
	pinned := hooks.Pinned(h, file)
	current, err := regfile.ReadFile(file)
	if err != nil {
		return fmt.Errorf("cannot read %s of %s hook %q: %w", file, h.Event, h.Shown(), err)
	}
	approved, approvedSHA, ok := s.ApprovedBytes(h)
	label := "approved (" + short(approvedSHA) + ")"
	switch {
	case !pinned:
		approved, label = current, "now"
	case !ok:
		approved, label = current, "now (not approved)"
	}

	var copyPath string
	var edited []byte
	if opts.From != "" {
		copyPath = opts.From
		if edited, err = regfile.ReadFile(opts.From); err != nil {
			return fmt.Errorf("cannot read --from %s: %w", opts.From, err)
		}
	} else {
		if copyPath, err = editorCopy(file, current); err != nil {
			return err
		}
		if err := runEditor(cmd, opts.f, copyPath); err != nil {
			return fmt.Errorf("%w; your edited copy is kept at %s", err, copyPath)
		}
		if edited, err = os.ReadFile(copyPath); err != nil {
			return fmt.Errorf("cannot read the edited copy %s: %w", copyPath, err)
		}
	}
	newSHA := sha256Hex(edited)
	if opts.SHA256 != "" && newSHA != opts.SHA256 {
		return fmt.Errorf("sha256 mismatch: expected %s, the new content (%s) has %s; nothing changed", opts.SHA256, copyPath, newSHA)
	}
	if bytes.Equal(edited, current) && (h.Allowed() || !pinned) {
		fmt.Fprintf(ios.ErrOut, "No change: %s is as it was; nothing was written (the copy is at %s)\n", esc(file), esc(copyPath))
		return nil
	}
	w := ios.PromptOut()
	if !opts.Yes {
		fmt.Fprintf(w, "  %s  %s  (file: %s)\n", esc(h.Event), esc(h.Named()), esc(file))
		diff := udiff.Unified(label, file+" (edited, "+short(newSHA)+")", string(approved), string(edited))
		if diff == "" {
			fmt.Fprintln(w, "  (the edited content is the approved content)")
		}
		fmt.Fprint(w, colorDiff(ios.Colors(), diff))
		fmt.Fprintf(w, "  new sha256: %s\n", newSHA)
		question := fmt.Sprintf("Replace %s with this and approve it? It runs with your full user credentials.", file)
		if !pinned {
			question = fmt.Sprintf("Replace %s with this? It runs with your full user credentials.", file)
		}
		yes, err := opts.f.Prompter.Confirm(question, "", false)
		if err != nil {
			return fmt.Errorf("%w (your edited copy is kept at %s)", err, copyPath)
		}
		if !yes {
			fmt.Fprintf(ios.ErrOut, "Nothing changed; your edited copy is kept at %s\n", esc(copyPath))
			return nil
		}
	}
	entry, warnings, err := s.ReplaceFile(h, file, edited, newSHA, allowlist.ViaAccept, opts.f.Now())
	printWarnings(ios, nil, warnings)
	if err != nil {
		return fmt.Errorf("%w (your edited copy is at %s)", err, copyPath)
	}
	cs := ios.Colors()
	if pinned {
		fmt.Fprintf(ios.Out, "%s replaced %s and approved it  %s  %s  (sha256 %s…)\n", cs.SuccessIcon(), esc(file), esc(entry.Event), esc(h.Spec.Named()), entry.ScriptSHA256[:12])
	} else {
		fmt.Fprintf(ios.Out, "%s replaced %s (sha256 %s…); the hook's approval pins %s, which did not change\n", cs.SuccessIcon(), esc(file), newSHA[:12], esc(h.Script))
	}
	if opts.From == "" {
		os.RemoveAll(filepath.Dir(copyPath))
	}
	printFailClosedAdvice(opts.f, s, list, []hooks.ShellHook{h})
	return nil
}

// editTarget is the one configured hook COMMAND (and --event) names; a
// command that serves several events needs --event.
func editTarget(s *hooks.Setup, list *allowlist.List, opts *editOptions) (hooks.ShellHook, error) {
	var found []hooks.ShellHook
	for _, spec := range s.Parsed.Specs {
		if spec.Names(opts.Command) && (opts.Event == "" || spec.Event == opts.Event) {
			found = append(found, s.InspectNow(spec, list))
		}
	}
	switch {
	case len(found) == 0:
		return hooks.ShellHook{}, usageErrorf("command %q is not configured in %s; check the exact string with 'hermes hooks list'", opts.Command, configName(s))
	case len(found) > 1:
		var events []string
		for _, h := range found {
			events = append(events, h.Event)
		}
		return hooks.ShellHook{}, usageErrorf("command %q serves several events (%s): choose one with --event", opts.Command, strings.Join(events, ", "))
	}
	h := found[0]
	switch {
	case h.ParseErr != nil:
		return h, h.ParseErr
	case h.NoScript || !h.HasScriptFile():
		return h, fmt.Errorf("%s hook %q has no script file to edit (its command is what is approved); change the command in the config instead", h.Event, h.Shown())
	case h.Unsafe != nil:
		return h, fmt.Errorf("%s hook %q: someone else can change its script: %v; fix that first", h.Event, h.Shown(), h.Unsafe)
	}
	return h, nil
}

// editorCopy writes content to a new private folder under the name of the
// script (so the editor knows its language) and returns its path.
func editorCopy(script string, content []byte) (string, error) {
	dir, err := os.MkdirTemp("", "hermes-edit-")
	if err != nil {
		return "", fmt.Errorf("cannot make a copy of %s to edit: %w", script, err)
	}
	p := filepath.Join(dir, filepath.Base(script))
	if err := os.WriteFile(p, content, 0o600); err != nil {
		return "", fmt.Errorf("cannot make a copy of %s to edit: %w", script, err)
	}
	return p, nil
}

// runEditor opens path in $VISUAL, else $EDITOR, else vi, on the terminal,
// and waits for it. The variable may hold arguments ("code -w").
func runEditor(cmd *cobra.Command, f *Factory, path string) error {
	editor := "vi"
	for _, name := range []string{"VISUAL", "EDITOR"} {
		if v, ok := f.Env(name); ok && strings.TrimSpace(v) != "" {
			editor = v
			break
		}
	}
	argv, err := shell.Split(editor)
	if err != nil || len(argv) == 0 {
		return fmt.Errorf("the editor %q cannot be read as a command: %v", editor, err)
	}
	in, out, ok := f.IO.Terminal()
	if !ok {
		return errNoTerminal
	}
	c := exec.CommandContext(cmd.Context(), argv[0], append(argv[1:], path)...)
	c.Stdin, c.Stdout, c.Stderr = in, out, out
	if err := c.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("the editor %s exited with %v: nothing changed", argv[0], ee.ProcessState)
		}
		return fmt.Errorf("cannot start the editor %q: %w (set $VISUAL or $EDITOR)", argv[0], err)
	}
	return nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
