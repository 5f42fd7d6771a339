// Package chaos is doctor --chaos (SPEC §25): it shows, before it happens,
// which faults open a guard. For each hook it builds, in a throwaway
// folder, what the agent would run under each fault — stand-in scripts, a
// copy of the script edited or made unreadable, a reduced PATH, an
// approval in a throwaway HERMES_HOME for a protected hook's stand-in —
// asks the engine to fire it, and judges the answer as the agent judges
// it. It never writes the user's files: scripts, config and allowlist are
// only read, and no audit line is written (the guard is told not to log).
package chaos
