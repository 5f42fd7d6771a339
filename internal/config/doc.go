// Package config owns where hermes keeps its files and what the user wrote
// in the config file: it resolves HERMES_HOME (the --home flag, the
// HERMES_HOME variable, ~/.hermes) and profiles, finds the config file
// (never in the current directory), and loads it. It returns the settings
// this tool reads (hooks_auto_accept, hooks_pin_scripts, hooks_audit_log,
// hooks_extra_events) and the raw `hooks:` YAML node with its line numbers,
// which the hooks package validates.
//
// Scalars are read with the rules of the Python agent's YAML loader (YAML
// 1.1: `yes`/`on` are booleans, `1e3` is a string), because the agent reads
// the same file and both must agree on what a value means.
package config
