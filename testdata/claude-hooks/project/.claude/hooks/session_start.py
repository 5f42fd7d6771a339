#!/usr/bin/env python3
"""SessionStart: load the project's notes as additionalContext."""
import json
import os
import sys

data = json.load(sys.stdin)
if data.get("source") != "startup":
    sys.exit(0)
notes = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "NOTES.md")
with open(notes) as f:
    text = f.read().strip()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}))
