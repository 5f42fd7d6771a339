package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/config/edit"
	"github.com/hermes-hooks/hermes/internal/filelock"
	"github.com/hermes-hooks/hermes/internal/guard"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// editJSON is what every config-editing command reports with --json.
type editJSON struct {
	whereJSON
	Changed bool   `json:"changed"`
	Diff    string `json:"diff"`
}

// configEdit is the outcome of one change to the config file.
type configEdit struct {
	Path    string // the config file changed (or that would be)
	Created bool   // it did not exist before
	Changed bool
	DryRun  bool
	// label and before/after are what Diff compares: made when asked
	// (--dry-run, --json), since a diff of a 55 MB config costs seconds
	// and hundreds of megabytes (SPEC §29 item 2).
	label         string
	before, after []byte
}

// Diff is the unified diff of the edit, "" when nothing changed.
func (e *configEdit) Diff() string {
	if !e.Changed {
		return ""
	}
	return udiff.Unified(e.label, e.Path, string(e.before), string(e.after))
}

// editConfig applies change to the config file in use, or creates
// <HERMES_HOME>/config.yaml when there is none. With dryRun nothing is
// written. change may run more than once (when the file changes on disk
// meanwhile, the edit is redone on what is there now).
func editConfig(cmd *cobra.Command, f *Factory, s *hooks.Setup, dryRun bool, change func([]byte) ([]byte, error)) (*configEdit, error) {
	return editConfigWith(cmd, f, s, dryRun, false, change)
}

// editConfigWith is editConfig; held says the caller holds the config lock
// already (lockConfig).
func editConfigWith(cmd *cobra.Command, f *Factory, s *hooks.Setup, dryRun, held bool, change func([]byte) ([]byte, error)) (*configEdit, error) {
	if err := checkWritableHome(f, s.Loc, dryRun); err != nil {
		return nil, err
	}
	path := s.Loc.ConfigPath
	if path == "" {
		path = filepath.Join(s.Loc.Home, "config.yaml")
	}
	res := &configEdit{Path: path, DryRun: dryRun}
	var before, after []byte
	var existed bool
	var err error
	if dryRun {
		var target string
		if target, err = edit.Target(path); err == nil {
			if before, existed, err = edit.ReadFile(target); err == nil {
				after, err = change(before)
			}
		}
	} else {
		before, after, err = edit.UpdateFile(path, edit.Options{Lock: f.configLockWait(cmd), Held: held}, func(old []byte) ([]byte, error) {
			existed = edit.Exists(path)
			return change(old)
		})
	}
	// A folder sync that failed after the rename: the file was replaced,
	// and the command ends with the error that says so (exit 1, SPEC §29).
	var unsynced *allowlist.DirSyncError
	if !errors.As(err, &unsynced) && err != nil {
		var refused *edit.RefusedError
		if errors.As(err, &refused) {
			return nil, &configRefusedError{Path: path, Err: refused}
		}
		return nil, err
	}
	res.Changed = string(before) != string(after)
	res.Created = !existed && res.Changed
	if res.Changed {
		res.label, res.before, res.after = path, before, after
		if !existed {
			res.label = "/dev/null"
		}
	}
	if !dryRun && res.Changed {
		s.Loc.ConfigPath = path
	}
	if unsynced != nil {
		return res, unsynced
	}
	return res, nil
}

// lockConfig takes the config's lock (SPEC §18) for a command whose writes
// to the allowlist must not be seen half-done beside the config: protect
// and unprotect hold it from before their first allowlist write until after
// the config's rename, and prune decides under it (SPEC §29). The lock is
// always taken before the allowlist's, never while holding it.
func lockConfig(cmd *cobra.Command, f *Factory, s *hooks.Setup) (unlock func(), err error) {
	return edit.Lock(configFile(s), f.configLockWait(cmd))
}

// configLockWait is how an edit waits for the config lock: like the
// allowlist lock (until Ctrl-C or SIGTERM, or --lock-timeout), saying so on
// stderr after a second.
func (f *Factory) configLockWait(cmd *cobra.Command) filelock.Wait {
	w := f.lockWait(cmd)
	return filelock.Wait{Context: w.Context, Timeout: w.Timeout, Notify: func() {
		fmt.Fprintln(f.IO.ErrOut, "waiting for the config lock (another hermes is editing the config)…")
	}}
}

// configEnv expands ${VAR} in config values as the agent does: with
// HERMES_HOME the home in use.
func configEnv(s *hooks.Setup) config.Env {
	return s.Env.With("HERMES_HOME", s.Loc.Home)
}

// configRefusedError is a config file that is not edited (exit 2).
type configRefusedError struct {
	Path string
	Err  *edit.RefusedError
}

func (e *configRefusedError) Error() string {
	return fmt.Sprintf("%s: %v; nothing was written", e.Path, e.Err)
}

func (e *configRefusedError) Unwrap() error { return e.Err }

// checkWritableHome refuses to write into a HERMES_HOME that was named
// explicitly and does not exist (a typo must not create a home, SPEC
// §13.16); ~/.hermes itself is created on demand.
func checkWritableHome(f *Factory, loc *config.Location, dryRun bool) error {
	// A home named explicitly: the one rule every writing command follows.
	if err := loc.CheckWritable(); err != nil {
		return err
	}
	fi, err := os.Stat(loc.Home)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return usageErrorf("HERMES_HOME %s is not a directory", loc.Home)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("checking HERMES_HOME %s: %w", loc.Home, err)
	}
	if dryRun {
		return nil
	}
	if err := os.MkdirAll(loc.Home, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", loc.Home, err)
	}
	return nil
}

// reportEdit prints the outcome of a config edit: the diff for --dry-run,
// else a line saying what changed.
func reportEdit(f *Factory, s *hooks.Setup, e *configEdit, done string) {
	out := f.IO.Out
	if e.DryRun {
		fmt.Fprint(out, sanitizeDiff(e.Diff()))
		verb := "would change"
		if e.Created {
			verb = "would create"
		}
		fmt.Fprintf(f.IO.ErrOut, "Dry run: %s %s; nothing was written.\n", verb, e.Path)
		return
	}
	printLocation(out, s.Loc)
	fmt.Fprintln(out)
	cs := f.IO.Colors()
	fmt.Fprintf(out, "%s %s\n", cs.SuccessIcon(), done)
	if e.Created {
		fmt.Fprintf(out, "Created %s\n", e.Path)
	}
}

// sanitizeDiff escapes control characters in diff lines (SPEC §13.9).
func sanitizeDiff(d string) string {
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		lines[i] = esc(body) + l[len(body):]
	}
	return strings.Join(lines, "")
}

// wholeSeconds reads a hook timeout given on the command line: a bare
// number of seconds or a Go duration (SPEC §14), which the config keeps as
// whole seconds.
func wholeSeconds(s string) (int, error) {
	d, err := parseSeconds(s)
	if err != nil {
		return 0, err
	}
	if d%time.Second != 0 {
		return 0, fmt.Errorf("%q is not a whole number of seconds (the config keeps whole seconds)", s)
	}
	return int(d / time.Second), nil
}

// guardPath is hermes-guard beside the hermes that was invoked, by the path
// it was invoked as (a symlink such as /usr/local/bin/hermes is kept, so an
// upgrade that moves the versioned folder it points to changes nothing).
func guardPath() (string, error) {
	self := os.Args[0]
	if !strings.Contains(self, "/") {
		p, err := exec.LookPath(self)
		if err != nil {
			return "", fmt.Errorf("cannot tell where hermes is installed (%s is not on PATH): %w; run hermes by its full path", self, err)
		}
		self = p
	}
	abs, err := filepath.Abs(self)
	if err != nil {
		return "", err
	}
	g := filepath.Join(filepath.Dir(abs), guard.Name)
	if strings.ContainsAny(g, "$") {
		return "", fmt.Errorf("the guard's path %s holds a \"$\", which the agent would expand in the config; install hermes in a folder without one", g)
	}
	fi, err := os.Stat(g)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s, the guard protected hooks run through, is missing or not executable: install it beside hermes (make build puts both in bin/); nothing was written", g)
	}
	return g, nil
}
