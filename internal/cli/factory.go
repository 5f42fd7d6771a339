package cli

import (
	"os"
	"time"

	"github.com/hermes-hooks/hermes/internal/allowlist"
	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/iostreams"
	"github.com/hermes-hooks/hermes/internal/shell"
)

// Version is set at build time with -ldflags "-X ...cli.Version=...".
var Version = "dev"

// Factory holds what every command depends on; tests build their own.
type Factory struct {
	IO *iostreams.IOStreams
	// Env looks up environment variables (os.LookupEnv in production).
	Env config.Env
	// Environ is the base environment handed to hooks.
	Environ func() []string
	// UserHome is the user's home directory (for ~ and ~/.hermes).
	UserHome func() string
	Runner   shell.Runner
	Now      func() time.Time
	// Settings are the global flags' values.
	Settings *Settings
	// Prompter asks questions at a terminal.
	Prompter Prompter
	// LockTimeout bounds the wait for the allowlist lock (--lock-timeout).
	LockTimeout time.Duration
}

// NewFactory returns the production factory.
func NewFactory() *Factory {
	io := iostreams.System()
	return &Factory{
		IO:      io,
		Env:     os.LookupEnv,
		Environ: os.Environ,
		UserHome: func() string {
			if h, err := os.UserHomeDir(); err == nil {
				return h
			}
			return "/"
		},
		Runner:      shell.Exec{},
		Now:         time.Now,
		Settings:    NewSettings(),
		Prompter:    &surveyPrompter{io: io},
		LockTimeout: allowlist.DefaultLockTimeout,
	}
}
