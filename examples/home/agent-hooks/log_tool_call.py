#!/usr/bin/env python3
"""post_tool_call logger: appends one line per tool call to logs/tool-calls.log."""
import json
import os
import sys

payload = json.load(sys.stdin)
home = os.environ.get("HERMES_HOME", os.path.expanduser("~/.hermes"))
os.makedirs(os.path.join(home, "logs"), exist_ok=True)
extra = payload.get("extra", {})
line = {
    "tool": payload.get("tool_name"),
    "session": payload.get("session_id"),
    "status": extra.get("status"),
    "duration_ms": extra.get("duration_ms"),
}
with open(os.path.join(home, "logs", "tool-calls.log"), "a", encoding="utf-8") as f:
    f.write(json.dumps(line) + "\n")
# Observers answer nothing.
