package config

// ExpandEnv expands ${VAR} and ${env:VAR} in s as the config's string
// values are expanded (unset → empty).
func ExpandEnv(s string, env Env) string {
	if env == nil {
		env = MapEnv(nil)
	}
	return envRef.ReplaceAllStringFunc(s, func(ref string) string {
		v, _ := env(envRef.FindStringSubmatch(ref)[1])
		return v
	})
}

// WithVar returns env with name set to value: how HERMES_HOME in config
// values means the home in use (--home, -p), as the agent sets it for a
// profile, rather than the caller's variable.
func WithVar(env Env, name, value string) Env {
	if env == nil {
		env = MapEnv(nil)
	}
	return func(key string) (string, bool) {
		if key == name {
			return value, true
		}
		return env(key)
	}
}
