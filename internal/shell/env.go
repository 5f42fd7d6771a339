package shell

import (
	"strings"
	"unicode/utf8"
)

// maxEnvValue caps a payload value placed in the hook's environment.
const maxEnvValue = 4 << 10

// HookEnv returns the environment for a hook: base (normally os.Environ())
// plus HERMES_HOME, HERMES_HOOK_EVENT, HERMES_HOOK_TOOL_NAME and
// HERMES_HOOK_SESSION_ID (those two only when non-empty) and HERMES_HOOK=1.
//
// Any same-named entries of base are removed first, including a tool name or
// session id this firing does not set: hermes may itself run inside a hook,
// and a value inherited from that outer firing would describe the wrong
// event. base is not modified.
//
// The values come from the payload, which an attacker may shape: a NUL byte
// would make every hook fail to start (the kernel cannot take it), so a
// guard would silently not run. NUL bytes are removed and each value is cut
// at 4 KiB (SPEC §13.10).
func HookEnv(base []string, home, event, toolName, sessionID string) []string {
	toolName, sessionID = envValue(toolName), envValue(sessionID)
	extra := []string{"HERMES_HOME=" + envValue(home), "HERMES_HOOK_EVENT=" + envValue(event)}
	if toolName != "" {
		extra = append(extra, "HERMES_HOOK_TOOL_NAME="+toolName)
	}
	if sessionID != "" {
		extra = append(extra, "HERMES_HOOK_SESSION_ID="+sessionID)
	}
	extra = append(extra, "HERMES_HOOK=1")

	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HERMES_HOME", "HERMES_HOOK_EVENT", "HERMES_HOOK_TOOL_NAME",
			"HERMES_HOOK_SESSION_ID", "HERMES_HOOK":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// envValue makes s safe to hand to execve: no NUL bytes, at most 4 KiB,
// cut on a character boundary.
func envValue(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	if len(s) <= maxEnvValue {
		return s
	}
	cut := maxEnvValue
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
