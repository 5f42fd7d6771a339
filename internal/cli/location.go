package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes/internal/config"
	"github.com/hermes-hooks/hermes/internal/hooks"
)

// printLocation names the HERMES_HOME and config file a command used.
func printLocation(w io.Writer, loc *config.Location) {
	fmt.Fprintf(w, "HERMES_HOME: %s\n", esc(loc.Home))
	if loc.Profile != config.DefaultProfile {
		fmt.Fprintf(w, "Profile: %s\n", esc(loc.Profile))
	}
	if loc.ConfigPath != "" {
		fmt.Fprintf(w, "Config: %s\n", esc(loc.ConfigPath))
	} else {
		fmt.Fprintf(w, "Config: none found (looked at %s)\n", esc(strings.Join(loc.Searched, ", ")))
	}
}

func configName(s *hooks.Setup) string {
	if s.Loc.ConfigPath == "" {
		return "the config (none found)"
	}
	return s.Loc.ConfigPath
}

// configFile is the config file an edit changes: the one in use, or
// <HERMES_HOME>/config.yaml when there is none.
func configFile(s *hooks.Setup) string {
	if s.Loc.ConfigPath != "" {
		return s.Loc.ConfigPath
	}
	return filepath.Join(s.Loc.Home, "config.yaml")
}
