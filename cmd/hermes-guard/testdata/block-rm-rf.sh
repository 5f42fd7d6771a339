#!/usr/bin/env bash
# pre_tool_call: block `rm -rf` in the terminal tool (the agent's docs' example).
payload="$(cat -)"
cmd=$(printf '%s' "$payload" | jq -r '.tool_input.command // empty')
if [[ "$cmd" =~ rm[[:space:]]+-rf ]]; then
  printf '{"action": "block", "message": "blocked: rm -rf"}\n'
fi
