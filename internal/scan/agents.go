package scan

import (
	"slices"
	"strings"
)

// Agent is one agent's hook format, as data: where its files are, the
// events it dispatches, which of them run when a session starts with no
// user action, and the reader that reads its files as the agent does.
type Agent struct {
	Name string
	// Files are the files read, relative to the checkout (for docs and
	// messages).
	Files []string
	// Events the agent dispatches. A reader decides what an event outside
	// them means (Cursor drops the whole file; most agents ignore the key).
	Events []string
	// SessionStart are the events that fire when a session starts (or the
	// workspace opens): no user action needed.
	SessionStart []string
	// FoldCase: event names match whatever their case (Antigravity).
	FoldCase bool
	read     func(c *checkout, a *Agent) reading
}

// Known reports whether the agent dispatches event.
func (a *Agent) Known(event string) bool { return a.match(a.Events, event) }

// AtSessionStart reports whether event fires when a session starts.
func (a *Agent) AtSessionStart(event string) bool { return a.match(a.SessionStart, event) }

func (a *Agent) match(list []string, event string) bool {
	if a.FoldCase {
		return slices.ContainsFunc(list, func(e string) bool { return strings.EqualFold(e, event) })
	}
	return slices.Contains(list, event)
}

// Agents are the formats of SPEC §27's table, in its order. Sources: each
// agent's hook documentation (Claude Code, developers.openai.com/codex/hooks,
// cursor.com/docs/hooks, Gemini CLI's hooks reference and Antigravity's
// hooks.json as `agy` reads it, docs.github.com Copilot hooks configuration,
// docs.cline.bot hook reference, kiro.dev hooks), checked 2026-12.
var Agents = []*Agent{
	{
		Name:  "Hermes",
		Files: []string{"config.yaml", "hooks/*/HOOK.yaml"},
		// Hermes' own catalogue decides what an unknown event means
		// (hermes hooks doctor); scan lists every entry.
		SessionStart: []string{"on_session_start", "session:start", "gateway:startup", "agent:start"},
		read:         readHermes,
	},
	{
		Name:  "Claude Code",
		Files: []string{".claude/settings.json", ".claude/settings.local.json"},
		Events: []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "Notification",
			"UserPromptSubmit", "SessionStart", "SessionEnd", "Stop", "StopFailure", "SubagentStart", "SubagentStop",
			"PreCompact", "PostCompact", "Setup", "InstructionsLoaded", "ConfigChange", "CwdChanged", "FileChanged",
			"WorktreeCreate", "WorktreeRemove", "TeammateIdle", "TaskCompleted", "Elicitation", "ElicitationResult"},
		SessionStart: []string{"SessionStart", "Setup", "InstructionsLoaded"},
		read:         readClaude,
	},
	{
		Name:  "Codex",
		Files: []string{".codex/hooks.json", ".codex/config.toml"},
		Events: []string{"SessionStart", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact",
			"PostCompact", "UserPromptSubmit", "SubagentStart", "SubagentStop", "Stop"},
		SessionStart: []string{"SessionStart"},
		read:         readCodex,
	},
	{
		Name:  "Cursor",
		Files: []string{".cursor/hooks.json"},
		Events: []string{"sessionStart", "sessionEnd", "preToolUse", "postToolUse", "postToolUseFailure",
			"subagentStart", "subagentStop", "beforeShellExecution", "afterShellExecution", "beforeMCPExecution",
			"afterMCPExecution", "beforeReadFile", "afterFileEdit", "beforeTabFileRead", "afterTabFileEdit",
			"beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought", "workspaceOpen"},
		SessionStart: []string{"sessionStart", "workspaceOpen"},
		read:         readCursor,
	},
	{
		Name:         "Antigravity",
		Files:        []string{".agents/hooks.json", ".agent/hooks.json"},
		Events:       []string{"PreToolUse", "PostToolUse", "PreInvocation", "PostInvocation", "Stop", "SessionStart"},
		SessionStart: []string{"SessionStart"},
		FoldCase:     true,
		read:         readAntigravity,
	},
	{
		Name:  "Gemini CLI",
		Files: []string{".gemini/settings.json"},
		Events: []string{"SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
			"BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification"},
		SessionStart: []string{"SessionStart"},
		read:         readGemini,
	},
	{
		Name:  "Copilot",
		Files: []string{".github/hooks/*.json"},
		Events: []string{"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
			"errorOccurred", "agentStop", "subagentStop"},
		SessionStart: []string{"sessionStart"},
		read:         readCopilot,
	},
	{
		Name:  "Cline",
		Files: []string{".clinerules/hooks/*"},
		Events: []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse", "PostToolUse",
			"UserPromptSubmit", "PreCompact"},
		SessionStart: []string{"TaskStart", "TaskResume"},
		read:         readCline,
	},
	{
		Name:  "Kiro",
		Files: []string{".kiro/hooks/*.kiro.hook", ".kiro/hooks/*.json"},
		// The IDE's .kiro.hook triggers (when.type) and the CLI's
		// hooks-file triggers.
		Events: []string{"fileEdited", "fileCreated", "fileDeleted", "userTriggered", "promptSubmit", "agentStop",
			"preToolUse", "postToolUse", "preTaskExecution", "postTaskExecution",
			"AgentSpawn", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "PostFileSave", "PostFileCreate",
			"PostFileDelete", "Manual", "PreSpecTask", "PostSpecTask"},
		SessionStart: []string{"AgentSpawn", "agentSpawn"},
		read:         readKiro,
	},
	{
		Name:  "git",
		Files: []string{".git/config", ".githooks/*", ".husky/*"},
		// Git's hooks (githooks(5)) and core.fsmonitor, which every git
		// status runs — and agents run git status when a session starts.
		Events:       gitHookNames,
		SessionStart: []string{"core.fsmonitor"},
		read:         readGit,
	},
}

// AgentNamed is the agent of that name, nil when none.
func AgentNamed(name string) *Agent {
	for _, a := range Agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

var gitHookNames = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
	"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
	"post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
	"post-index-change", "core.fsmonitor"}
