package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// request turns the global flags (bound in Settings) into a config request.
func (f *Factory) request() config.Request {
	v := f.Settings
	return config.Request{HomeFlag: v.GetString("home"), ProfileFlag: v.GetString("profile"),
		ConfigFlag: v.GetString("config"), Env: f.Env, UserHome: f.UserHome()}
}

// Load finds HERMES_HOME, reads the config and parses its hooks.
func (f *Factory) Load(cmd *cobra.Command) (*hooks.Setup, error) {
	return f.load(cmd, hooks.Load)
}

// LoadWithAllowlist is Load for a command that reads the allowlist next:
// the allowlist is read beside the config (hooks.LoadWithAllowlist).
func (f *Factory) LoadWithAllowlist(cmd *cobra.Command) (*hooks.Setup, error) {
	return f.load(cmd, hooks.LoadWithAllowlist)
}

// loadAndRead loads the setup, reads the allowlist beside the config and
// prints the config's diagnostics and the allowlist's warnings: where a
// command that only reports starts.
func (f *Factory) loadAndRead(cmd *cobra.Command) (*hooks.Setup, *allowlist.List, error) {
	s, err := f.LoadWithAllowlist(cmd)
	if err != nil {
		return nil, nil, err
	}
	list, warnings, err := s.Store.Read()
	if err != nil {
		return nil, nil, err
	}
	printWarnings(f.IO, s.Diagnostics(), warnings)
	return s, list, nil
}

func (f *Factory) load(cmd *cobra.Command, load func(config.Request) (*hooks.Setup, error)) (*hooks.Setup, error) {
	req := f.request()
	var ctx context.Context
	if cmd != nil {
		ctx = cmd.Context()
	}
	s, err := untilDone(ctx, func() (*hooks.Setup, error) { return load(req) })
	if err == nil {
		if f.Environ != nil {
			s.Environ = f.Environ()
		}
		f.explain(s.Loc)
		s.Store.Wait = f.lockWait(cmd)
	}
	return s, err
}

// Store opens the allowlist of home, waiting for its lock as the command
// line says.
func (f *Factory) Store(cmd *cobra.Command, home string) *allowlist.Store {
	s := allowlist.Open(home)
	s.Wait = f.lockWait(cmd)
	return s
}

// lockWait is how a command waits for the allowlist lock: until Ctrl-C or
// SIGTERM, or --lock-timeout, saying so on stderr after a second.
func (f *Factory) lockWait(cmd *cobra.Command) allowlist.LockWait {
	var ctx context.Context // nil: xRun called by a test without a command
	if cmd != nil {
		ctx = cmd.Context()
	}
	return allowlist.LockWait{Context: ctx, Timeout: f.lockTimeoutDefault(), Notify: func() {
		fmt.Fprintln(f.IO.ErrOut, "waiting for the allowlist lock (held by another hermes or the agent)…")
	}}
}

// lockTimeoutDefault is LockTimeout, or the default when a test's factory
// left it unset.
func (f *Factory) lockTimeoutDefault() time.Duration {
	if f.LockTimeout > 0 {
		return f.LockTimeout
	}
	return allowlist.DefaultLockTimeout
}

// Locate resolves where the files are without reading the config.
func (f *Factory) Locate(cmd *cobra.Command) (*config.Location, error) {
	loc, err := config.Locate(f.request())
	if err == nil {
		f.explain(loc)
	}
	return loc, err
}

// explain says, with --verbose, which files this invocation uses and why.
func (f *Factory) explain(loc *config.Location) {
	if !f.Settings.GetBool("verbose") {
		return
	}
	w := f.IO.ErrOut
	fmt.Fprintf(w, "hermes: root %s, profile %s, HERMES_HOME %s\n", esc(loc.Root), esc(loc.Profile), esc(loc.Home))
	fmt.Fprintf(w, "hermes: config looked at %s: ", esc(strings.Join(loc.Searched, ", ")))
	if loc.ConfigPath == "" {
		fmt.Fprintln(w, "none found")
	} else {
		fmt.Fprintf(w, "using %s\n", esc(loc.ConfigPath))
	}
	fmt.Fprintf(w, "hermes: allowlist %s\n", esc(allowlist.Open(loc.Home).Path))
}

// untilDone runs fn, which only reads, and returns its result, or
// ctx.Err() as soon as ctx is done (Ctrl-C, SIGTERM): reading a config of
// tens of megabytes takes seconds, and an interrupt must end hermes within
// one (SPEC §22). fn is left to finish on its own; it writes nothing.
func untilDone[T any](ctx context.Context, fn func() (T, error)) (T, error) {
	if ctx == nil || ctx.Done() == nil {
		return fn()
	}
	if err := ctx.Err(); err != nil {
		var zero T
		return zero, err
	}
	return awaitResult(ctx, 0, fn)
}

// awaitResult runs fn on its own goroutine and returns its result, or,
// grace after ctx is done (at once when grace is 0), ctx.Err(), leaving fn
// behind. A nil ctx waits for fn.
func awaitResult[T any](ctx context.Context, grace time.Duration, fn func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := fn()
		done <- result{v, err}
	}()
	var stop <-chan struct{}
	if ctx != nil {
		stop = ctx.Done()
	}
	select {
	case r := <-done:
		return r.v, r.err
	case <-stop:
	}
	if grace > 0 {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case r := <-done:
			return r.v, r.err
		case <-t.C:
		}
	}
	var zero T
	return zero, ctx.Err()
}

// safeMode reports HERMES_SAFE_MODE.
func safeMode(f *Factory) bool {
	v, _ := f.Env("HERMES_SAFE_MODE")
	return config.Truthy(v)
}

// Engine loads the setup and wires it to the process for running hooks.
func (f *Factory) Engine(cmd *cobra.Command) (*hooks.Engine, error) {
	s, err := f.LoadWithAllowlist(cmd)
	if err != nil {
		return nil, err
	}
	cwd, _ := os.Getwd()
	return &hooks.Engine{Setup: s, Runner: f.Runner, Environ: f.Environ(), Cwd: cwd, Now: f.Now}, nil
}
