// Package hookspec reads the config's hooks: block into specs: Parse turns a
// loaded config into shell hook Specs and outbound Webhooks with diagnostics
// naming file, line and field, compiling each matcher (Matcher, with the
// per-firing MatchBudget) and warning about tool names the agent does not
// have. It also writes the block: AddToConfig, AddAllToConfig and
// RemoveFromConfig edit hooks.<event> lists keeping the user's formatting.
//
// It knows the events (package catalog) but not the engine: package hooks
// decides what a spec may do and runs it.
package hookspec
