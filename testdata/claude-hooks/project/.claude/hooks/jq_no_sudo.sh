#!/bin/bash
# PreToolUse guard written with jq, the way most Claude Code guards are.
cmd=$(jq -r '.tool_input.command // empty')
if [[ "$cmd" == sudo* ]]; then
  jq -n --arg r "sudo is not allowed: $cmd" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $r}}'
fi
