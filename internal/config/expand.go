package config

import "strings"

// ExpandEnv expands ${VAR} and ${env:VAR} in s as the config's string
// values are expanded (unset → empty).
func ExpandEnv(s string, env Env) string {
	if !strings.Contains(s, "${") {
		return s // every reference starts so; most values have none
	}
	if env == nil {
		env = MapEnv(nil)
	}
	return envRef().ReplaceAllStringFunc(s, func(ref string) string {
		v, _ := env(envRef().FindStringSubmatch(ref)[1])
		return v
	})
}
