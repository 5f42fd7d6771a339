#!/usr/bin/env python3
"""PreToolUse with onFailure "block": a bug here must not let calls through."""
import json
import sys

data = json.load(sys.stdin)
# The bug: Claude Code never sends "tool_args", so this raises KeyError.
if "sudo" in data["tool_args"]["command"]:
    sys.exit(2)
