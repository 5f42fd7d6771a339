// Package gateway owns the agent's gateway hooks (SPEC §9): discovering the
// folders under <HERMES_HOME>/hooks/ and reading their HOOK.yaml, matching
// them to gateway events (exact subscribers, then <prefix>:* wildcards), and
// running their handlers — handler.py through a small Python runner embedded
// in the binary (runner.py), or an executable named handler run like a shell
// hook. It also checks handlers for doctor without executing them.
//
// It must not import internal/hooks: that package imports this one. The
// list of known gateway event names is therefore passed in by the caller.
package gateway
