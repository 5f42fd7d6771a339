package shell

import "strings"

// HookEnv returns the environment for a hook: base (normally os.Environ())
// plus HERMES_HOME, HERMES_HOOK_EVENT, HERMES_HOOK_TOOL_NAME and
// HERMES_HOOK_SESSION_ID (those two only when non-empty) and HERMES_HOOK=1.
//
// Any same-named entries of base are removed first, including a tool name or
// session id this firing does not set: hermes may itself run inside a hook,
// and a value inherited from that outer firing would describe the wrong
// event. base is not modified.
func HookEnv(base []string, home, event, toolName, sessionID string) []string {
	extra := []string{"HERMES_HOME=" + home, "HERMES_HOOK_EVENT=" + event}
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
