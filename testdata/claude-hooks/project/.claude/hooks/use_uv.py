#!/usr/bin/env python3
"""PreToolUse rewriter: pip install becomes uv pip install (updatedInput)."""
import json
import sys

data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
if data.get("tool_name") == "Bash" and command.startswith("pip install "):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "uv " + command},
        }
    }))
