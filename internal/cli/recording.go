package cli

import "github.com/hermes-hooks/hermes/internal/record"

// recordSettings is whether firings are recorded (SPEC §26), read from the
// config at configPath as the guard reads it (a line scan), the
// environment winning.
func recordSettings(f *Factory, configPath string) record.Settings {
	return record.LoadPath(configPath, func(k string) string {
		v, _ := f.Env(k)
		return v
	})
}
