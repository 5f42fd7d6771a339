#!/bin/sh
# PreToolUse, with if "Bash(git *)": Claude Code runs it for git commands only.
cat >/dev/null
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "git is frozen during the release"}}'
