#!/bin/sh
# PreToolUse: file writes stay inside $CLAUDE_PROJECT_DIR.
path=$(python3 -c 'import json,sys; print(json.load(sys.stdin).get("tool_input", {}).get("file_path", ""))')
case "$path" in
  "$CLAUDE_PROJECT_DIR"/*) exit 0 ;;
esac
echo "{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \"permissionDecisionReason\": \"$path is outside the project\"}}"
