package cli

import (
	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// request turns the global flags into a config request.
func (f *Factory) request(cmd *cobra.Command) config.Request {
	v := f.Settings
	return config.Request{HomeFlag: v.GetString("home"), ProfileFlag: v.GetString("profile"),
		ConfigFlag: v.GetString("config"), Env: f.Env, UserHome: f.UserHome()}
}

// Load finds HERMES_HOME, reads the config and parses its hooks.
func (f *Factory) Load(cmd *cobra.Command) (*hooks.Setup, error) {
	return hooks.Load(f.request(cmd))
}
