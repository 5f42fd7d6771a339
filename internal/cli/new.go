package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/filelock"
	"github.com/hermes-hooks/hermes/internal/fileowner"
	"github.com/hermes-hooks/hermes/internal/fsync"
	"github.com/hermes-hooks/hermes/internal/hooks"
	"github.com/hermes-hooks/hermes/internal/hooks/scaffold"
	"github.com/hermes-hooks/hermes/internal/hookspec"
	"github.com/hermes-hooks/hermes/internal/shell"
	"github.com/spf13/cobra"
)

// scriptDirName is where `new` puts hook scripts, inside HERMES_HOME.
const scriptDirName = "agent-hooks"

// blockingDefaultTimeout is written for a new blocking hook when --timeout
// is not given: a hook that can hold up every tool call should say how
// long it may (doctor lints its absence).
const blockingDefaultTimeout = 30

type newOptions struct {
	f          *Factory
	Event      string
	Name       string
	Lang       string
	Matcher    string
	Timeout    string
	FailClosed bool
	Force      bool
	Approve    bool
	DryRun     bool
	JSON       bool
}

func newCmdNew(f *Factory, runF func(*newOptions) error) *cobra.Command {
	opts := &newOptions{f: f}
	cmd := &cobra.Command{
		Use:   "new <event> <name>",
		Short: "Create a hook script for an event and add it to the config",
		Long: `Write <HERMES_HOME>/agent-hooks/<name>.sh (or .py with --lang python), mode
0744, from a template for the event: it reads the payload, lists the event's
fields, and shows the answers the event can give, answering nothing until you
edit it. An existing file is never overwritten.

The hook is added to the config file as ${HERMES_HOME}/agent-hooks/<name>.sh,
which the agent and hermes both expand to the home in use (profiles included).
With --approve it is approved at once (its sha256 and a snapshot recorded).`,
		Example: `  hermes hooks new pre_tool_call guard --approve
  hermes hooks test pre_tool_call
  hermes hooks new pre_llm_call context --lang python`,
		Args: exactArgs(2, "an event and a name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Event, opts.Name = args[0], args[1]
			if _, ok := scaffold.Langs()[opts.Lang]; !ok {
				return usageErrorf("--lang %q: choose sh or python", opts.Lang)
			}
			for _, ext := range scaffold.Langs() {
				opts.Name = strings.TrimSuffix(opts.Name, ext)
			}
			if err := scaffold.CheckName(opts.Name); err != nil {
				return &UsageError{msg: err.Error()}
			}
			if opts.DryRun && opts.Approve {
				return usageErrorf("--dry-run writes nothing, so there is nothing to --approve")
			}
			if runF != nil {
				return runF(opts)
			}
			return newRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Lang, "lang", "sh", "the script's language `LANG`: sh or python")
	addHookFlags(cmd, &opts.Matcher, &opts.Timeout, &opts.FailClosed)
	fl.BoolVar(&opts.Force, "force", false, "add the hook even when its matcher is one Python's re rejects (it could never fire)")
	fl.BoolVar(&opts.Approve, "approve", false, "approve the new hook (records its sha256, mtime and a snapshot)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "print the diff of the config file and write nothing")
	fl.BoolVar(&opts.JSON, "json", false, "print JSON (see docs/json.md)")
	_ = cmd.RegisterFlagCompletionFunc("lang", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"sh", "python"}, cobra.ShellCompDirectiveNoFileComp
	})
	cmd.ValidArgsFunction = completeShellEventArg(f)
	return cmd
}

type newJSON struct {
	editJSON
	Event    string `json:"event"`
	Command  string `json:"command"`
	Script   string `json:"script"`
	Approved bool   `json:"approved"`
}

// hookCommand is how the config names a script under HERMES_HOME: through
// ${HERMES_HOME}, which both the agent and hermes expand to the home in use,
// quoted when the home needs it once expanded.
func hookCommand(home, file string) string {
	cmd := "${HERMES_HOME}/" + scriptDirName + "/" + file
	switch {
	case shell.Quote(home) == home:
		return cmd
	case !strings.ContainsAny(home, "\"\\"):
		// The agent's tokenizer (shlex) gives "$" and "`" no meaning in
		// double quotes; and a "${...}" in the home's name stays as it is,
		// where the path written out would be expanded by the config
		// (SPEC §13.2 rule 8).
		return `"` + cmd + `"`
	}
	// A home whose name would need escaping inside double quotes: name the
	// file itself.
	return shell.Quote(filepath.Join(home, scriptDirName, file))
}

func newRun(cmd *cobra.Command, opts *newOptions) error {
	s, err := opts.f.Load(cmd)
	if err != nil {
		return err
	}
	ios := opts.f.IO
	file := opts.Name + scaffold.Langs()[opts.Lang]
	script := filepath.Join(s.Loc.Home, scriptDirName, file)
	h := hookspec.NewHook{Event: opts.Event, Command: hookCommand(s.Loc.Home, file), Matcher: opts.Matcher, FailClosed: opts.FailClosed}
	warnings, neverFires, err := checkNewHook(s, &h, opts.Timeout)
	if err != nil {
		return err
	}
	ev, _ := s.Catalogue.Lookup(h.Event)
	if h.Timeout == 0 && ev.Blocking {
		h.Timeout = blockingDefaultTimeout
	}
	if err := refuseNeverFires(ios, warnings, neverFires, opts.Force); err != nil {
		return err
	}
	body, err := scaffold.Render(opts.Lang, opts.Name, ev)
	if err != nil {
		return err
	}
	// A script an interrupted 'new' left (the same template, ours) is
	// adopted, so the re-run finishes the job (SPEC §22).
	adopted := false
	if _, err := os.Lstat(script); err == nil {
		if !leftByNew(script, body) {
			return fmt.Errorf("%s already exists; nothing was written (pick another name, or add it with: hermes hooks add %s %s)",
				script, shell.Quote(h.Event), shell.Quote(h.Command))
		}
		adopted = true
	}

	switch {
	case opts.DryRun:
	case adopted:
		unlock, err := lockScripts(cmd, opts.f, s, filepath.Dir(script))
		if err != nil {
			return err
		}
		unlock()
	default:
		if err := checkWritableHome(opts.f, s.Loc, false); err != nil {
			return err
		}
		if err := writeNewScript(cmd, opts.f, s, script, body); err != nil {
			return err
		}
	}
	res, err := editConfig(cmd, opts.f, s, opts.DryRun, func(old []byte) ([]byte, error) {
		return hookspec.AddToConfig(old, h, configEnv(s))
	})
	if errors.Is(err, hookspec.ErrAlreadyConfigured) && adopted {
		// The earlier run got as far as the config.
		res, err = &configEdit{Path: configFile(s), DryRun: opts.DryRun}, nil
	}
	if err != nil {
		if !opts.DryRun && !adopted {
			// Leave nothing half done: without its config entry the script
			// would only be in the way of a second attempt.
			os.Remove(script)
		}
		if errors.Is(err, hookspec.ErrAlreadyConfigured) {
			return fmt.Errorf("%w in %s; nothing was written", err, configName(s))
		}
		return err
	}

	if why := notExecutable(s, h.Command); why != "" && !opts.DryRun {
		// A file system mounted noexec takes the execute bit away.
		fmt.Fprintf(ios.ErrOut, "%s %s\n", ios.ErrColors().WarningIcon(), esc(why))
	}
	approved := false
	var approveWarnings []string
	if opts.Approve {
		if approved, approveWarnings, err = approveNew(opts, h, body); err != nil {
			return fmt.Errorf("%s was written and added to %s, but approving it failed: %w", script, res.Path, err)
		}
	}
	printWarnings(ios, nil, approveWarnings)

	if opts.JSON {
		out := newJSON{editJSON: editJSON{where(s.Loc), res.Changed, res.Diff()}, Event: h.Event, Command: h.Command,
			Script: script, Approved: approved}
		if opts.DryRun && s.Loc.ConfigPath == "" {
			out.ConfigPath = &res.Path
		}
		return writeJSON(ios.Out, out)
	}
	if opts.DryRun {
		reportEdit(opts.f, s, res, "")
		fmt.Fprintf(ios.ErrOut, "Dry run: would write %s (mode 0744).\n", esc(script))
		return nil
	}
	done := fmt.Sprintf("created %s", script)
	if adopted {
		done = fmt.Sprintf("kept %s (the template, as an earlier run left it)", script)
	}
	reportEdit(opts.f, s, res, esc(done))
	if res.Changed {
		fmt.Fprintf(ios.Out, "  added  %s  %s\n", esc(h.Event), esc(h.Command))
	} else {
		fmt.Fprintf(ios.Out, "  already in %s  %s  %s\n", esc(res.Path), esc(h.Event), esc(h.Command))
	}
	if approved {
		fmt.Fprintf(ios.Out, "  approved (sha256 and a snapshot recorded; change it with 'hermes hooks edit %s', which approves the new version as it lands)\n", esc(shell.Quote(h.Command)))
	}
	fmt.Fprintf(ios.Out, "\nNext: edit %s, then try it:\n  hermes hooks test %s\n", esc(script), pasteQuote(h.Event))
	if !approved {
		fmt.Fprintf(ios.Out, "and approve it when it does what you want:\n  hermes hooks accept %s --event %s\n", pasteQuote(expandHome(h.Command, s)), pasteQuote(h.Event))
	}
	nh := hooks.ShellHook{Spec: hookspec.Spec{Event: h.Event, Command: h.Command, FailClosed: h.FailClosed}}
	nh.Script = script
	printFailClosedAdvice(opts.f, s, nil, []hooks.ShellHook{nh})
	return nil
}

// writeNewScript creates the script, never replacing a file, with mode
// 0744 whatever the umask: written to a temp file, synced, then linked into
// place (a rename that cannot replace), so a killed run leaves the whole
// template or nothing, and its temp file is removed by the next run. The
// config lock is held meanwhile, so no other 'new' is between its temp file
// and its link when the temps are swept.
func writeNewScript(cmd *cobra.Command, f *Factory, s *hooks.Setup, path string, body []byte) error {
	dir := filepath.Dir(path)
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	if statErr != nil {
		// Root scaffolding into a user's home leaves a folder and a script
		// the user owns (SPEC §13.2 rule 8), not ones they cannot edit.
		fileowner.LikeParent(dir)
	}
	unlock, err := lockScripts(cmd, f, s, dir)
	if err != nil {
		return fmt.Errorf("writing %s: %w; nothing was written", path, err)
	}
	defer unlock()
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	_, err = tmp.Write(body)
	if err == nil {
		err = tmp.Chmod(0o744)
	}
	if err == nil {
		err = fileowner.Keep(tmp, path)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	defer os.Remove(tmp.Name())
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s already exists; nothing was written", path)
		}
		return fmt.Errorf("creating %s: %w", path, err)
	}
	_ = fsync.Dir(dir) // a failure only loses durability
	return nil
}

// lockScripts takes the config lock, which every 'new' holds while it
// writes a script, and removes the temp files of scripts whose 'new' was
// killed before the link.
func lockScripts(cmd *cobra.Command, f *Factory, s *hooks.Setup, dir string) (unlock func(), err error) {
	target, err := edit.Target(configFile(s))
	if err != nil {
		return nil, err
	}
	unlock, err = filelock.Lock(edit.LockPath(target), f.configLockWait(cmd))
	if err != nil {
		return nil, err
	}
	for _, ext := range scaffold.Langs() {
		edit.RemoveTemps(dir, ".*"+ext+".tmp-*")
	}
	return unlock, nil
}

// leftByNew: the file at path is what 'new' writes — a regular file of ours,
// mode 0744, holding exactly the template body.
func leftByNew(path string, body []byte) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o744 || fi.Size() != int64(len(body)) {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return false
	}
	got, err := os.ReadFile(path)
	return err == nil && bytes.Equal(got, body)
}

// approveNew approves the hook just added, through the engine's approval
// path, reading the config afresh so the command is the one the agent will
// see. It pins the bytes it wrote, and only if the file still holds them
// (SPEC §13.2 rule 7): a rewrite in between is not approved.
func approveNew(opts *newOptions, h hookspec.NewHook, body []byte) (bool, []string, error) {
	s, err := opts.f.LoadWithAllowlist(nil)
	if err != nil {
		return false, nil, err
	}
	list, warnings, err := s.Store.Read()
	if err != nil {
		return false, warnings, err
	}
	for _, spec := range s.Parsed.ForEvent(h.Event) {
		if spec.Command == expandHome(h.Command, s) {
			sum := sha256.Sum256(body)
			_, w, err := s.ApprovePinned([]hooks.ShellHook{s.Inspect(spec, list)}, allowlist.ViaAccept, opts.f.Now(), hex.EncodeToString(sum[:]))
			if errors.Is(err, hooks.ErrHashMismatch) {
				err = fmt.Errorf("the script of %q changed after it was written, so it was not approved: review it, then approve it with 'hermes hooks accept': %w", h.Command, err)
			}
			return err == nil, append(warnings, w...), err
		}
	}
	return false, warnings, fmt.Errorf("the new hook is not in %s after writing it", configName(s))
}

func expandHome(cmd string, s *hooks.Setup) string {
	return strings.ReplaceAll(cmd, "${HERMES_HOME}", s.Loc.Home)
}
