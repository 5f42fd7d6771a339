package cli

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/spf13/pflag"
)

// Settings are the global flags' values as every command reads them: the
// flag's value (its default when not given), unless Set overrode it (a
// test's factory; `test --isolated`'s copy of the home). It replaces viper,
// which did only this here and whose dependencies (a second YAML package,
// dotenv, cast, afero…) every run of hermes paid for at start-up.
type Settings struct {
	flags map[string]*pflag.Flag
	set   map[string]any
}

// NewSettings returns settings bound to no flag and with nothing set.
func NewSettings() *Settings {
	return &Settings{flags: map[string]*pflag.Flag{}, set: map[string]any{}}
}

// BindPFlags binds every flag of fs under its name; a later binding of
// the same name replaces the earlier.
func (s *Settings) BindPFlags(fs *pflag.FlagSet) {
	fs.VisitAll(func(fl *pflag.Flag) { s.flags[fl.Name] = fl })
}

// Set overrides the key's value, whatever its flag says.
func (s *Settings) Set(key string, v any) { s.set[key] = v }

// Get is the key's value: what Set gave it, else its flag's (a bool for a
// bool flag, else the flag's text), else nil.
func (s *Settings) Get(key string) any {
	if v, ok := s.set[key]; ok {
		return v
	}
	fl := s.flags[key]
	if fl == nil {
		return nil
	}
	if fl.Value.Type() == "bool" {
		b, _ := strconv.ParseBool(fl.Value.String())
		return b
	}
	return fl.Value.String()
}

// GetString is Get as text ("" for an unknown key).
func (s *Settings) GetString(key string) string {
	switch v := s.Get(key).(type) {
	case nil:
		return ""
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}

// GetBool is Get as a bool (false for an unknown key or text that is not
// a bool).
func (s *Settings) GetBool(key string) bool {
	switch v := s.Get(key).(type) {
	case bool:
		return v
	case string:
		b, _ := strconv.ParseBool(v)
		return b
	default:
		return false
	}
}

// AllKeys are the keys bound or set, sorted.
func (s *Settings) AllKeys() []string {
	var keys []string
	for k := range s.flags {
		keys = append(keys, k)
	}
	for k := range s.set {
		if s.flags[k] == nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
